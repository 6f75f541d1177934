// Cycles between folders, the one layer rule dependency-cruiser cannot express (its `circular` works on
// modules). Each second-level folder of src/ is a unit (src/core/catalog, src/adapters/lastfm,
// src/toolkit/db, ...), and each file directly in a layer (src/core/context.ts, src/app/server.ts) is a unit
// of its own. Modules collapse into their unit, and Tarjan's strongly connected
// components of the unit graph are the cycles: every import between two units of one component is reported.
// `tsx scripts/layers.ts` prints them (npm run lint:layers); src/app/layers.test.ts fails on any layer violation.
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cruise, type IConfiguration, type IModule } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const root = path.resolve(import.meta.dirname, '..');

export const FOLDER_CYCLE_RULE = {
  name: 'no-folder-cycles',
  comment:
    'No cycle between folders: each second-level folder of src/ (and each file directly in a layer) is a unit, ' +
    'and if unit A imports unit B, nothing in B imports A, even through other units (type-only imports count); ' +
    'move the shared piece to the lower folder or into a small module both import.',
};

/** The unit a module of src/ belongs to, or undefined for anything outside src/. */
export function unitOf(source: string): string | undefined {
  const parts = source.split('/');
  if (parts[0] !== 'src' || parts.length < 3) return undefined;
  return parts.length === 3 ? source : parts.slice(0, 3).join('/');
}

/** Tarjan's strongly connected components of a graph given as Map<node, Set<node>>. */
function stronglyConnected(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    lowLink.set(node, index.size - 1);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        lowLink.set(node, Math.min(lowLink.get(node)!, lowLink.get(next)!));
      } else if (onStack.has(next)) {
        lowLink.set(node, Math.min(lowLink.get(node)!, index.get(next)!));
      }
    }
    if (lowLink.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      components.push(component);
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return components;
}

/**
 * The imports that close a cycle between units, as { from, to, units } where units lists the whole cycle's
 * component, given the cruised modules (dependency-cruiser's `output.modules`). `isChecked(source)` picks the
 * modules the rule applies to (production code: tests may reach across).
 */
export function folderCycles(modules: readonly IModule[], isChecked: (source: string) => boolean): { from: string; to: string; units: string[] }[] {
  const imports: { from: string; to: string; fromUnit: string; toUnit: string }[] = [];
  const graph = new Map<string, Set<string>>();
  for (const module of modules) {
    const fromUnit = unitOf(module.source);
    if (!fromUnit || !isChecked(module.source)) continue;
    for (const dependency of module.dependencies) {
      const toUnit = unitOf(dependency.resolved);
      if (!toUnit || toUnit === fromUnit) continue;
      imports.push({ from: module.source, to: dependency.resolved, fromUnit, toUnit });
      if (!graph.has(fromUnit)) graph.set(fromUnit, new Set());
      graph.get(fromUnit)!.add(toUnit);
    }
  }
  const componentOf = new Map<string, string[]>();
  for (const component of stronglyConnected(graph)) {
    if (component.length < 2) continue;
    component.sort();
    for (const unit of component) componentOf.set(unit, component);
  }
  return imports
    .filter(({ fromUnit, toUnit }) => componentOf.has(fromUnit) && componentOf.get(fromUnit) === componentOf.get(toUnit))
    .map(({ from, to, fromUnit }) => ({ from, to, units: componentOf.get(fromUnit)! }));
}

/** The repository's .dependency-cruiser.cjs: rules that all have a name and a comment, and a tsconfig. */
type LayerConfig = Required<Pick<IConfiguration, 'forbidden'>> & { options: NonNullable<IConfiguration['options']> & { tsConfig: { fileName: string } } };

export interface LayerViolation {
  from: string;
  to: string;
  rule: string;
  comment: string;
}

/** Cruises src/ with the repository's .dependency-cruiser.cjs, through dependency-cruiser's API. */
export async function cruiseSources() {
  const config: LayerConfig = createRequire(import.meta.url)(path.join(root, '.dependency-cruiser.cjs'));
  const tsConfig = extractTSConfig(path.join(root, config.options.tsConfig.fileName));
  const previous = process.cwd();
  process.chdir(root);
  try {
    const { output } = await cruise(['src'], { ...config.options, ruleSet: { forbidden: config.forbidden }, validate: true }, {}, { tsConfig });
    if (typeof output === 'string') throw new Error('dependency-cruiser answered a report, not a cruise result');
    return { output, config };
  } finally {
    process.chdir(previous);
  }
}

/** Every violation of the layer rules, module rules and folder cycles, as { from, to, rule, comment }. */
export async function layerViolations(): Promise<LayerViolation[]> {
  const { output, config } = await cruiseSources();
  const comments = new Map(config.forbidden.map((rule) => [rule.name, rule.comment ?? '']));
  const moduleViolations = output.summary.violations.map((violation) => ({
    from: violation.from,
    // A cycle is named in full: from -> each step -> back to from.
    to: violation.cycle ? violation.cycle.map((step) => step.name).join(' -> ') : violation.to,
    rule: violation.rule.name,
    comment: comments.get(violation.rule.name) ?? '',
  }));
  // Tests may reach across folders: the test code is what the test-support rule leaves out of production.
  const testCode = new RegExp(String(config.forbidden.find((rule) => rule.name === 'no-test-support-in-production')?.from.pathNot));
  const cycles = folderCycles(output.modules, (source) => !testCode.test(source)).map(({ from, to, units }) => ({
    from,
    to,
    rule: FOLDER_CYCLE_RULE.name,
    comment: `${FOLDER_CYCLE_RULE.comment} (cycle: ${units.join(', ')})`,
  }));
  return [...moduleViolations, ...cycles];
}

// Run directly, it prints the folder cycles (dependency-cruiser's own CLI prints the rest); with --summary,
// the count of every rule's violations.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const summary = process.argv.includes('--summary');
  const violations = (await layerViolations()).filter((violation) => summary || violation.rule === FOLDER_CYCLE_RULE.name);
  if (!summary) for (const { from, to, comment } of violations) console.log(`${from} -> ${to}: ${comment}\n`);
  const byRule = new Map<string, number>();
  for (const { rule } of violations) byRule.set(rule, (byRule.get(rule) ?? 0) + 1);
  for (const [rule, count] of byRule) console.log(`${String(count).padStart(4)}  ${rule}`);
  console.log(`${violations.length} ${summary ? 'layer violation(s)' : 'import(s) in folder cycles'}`);
  process.exitCode = violations.length > 0 ? 1 : 0;
}
