/**
 * The row types in schema.ts are written by hand beside the SQL migrations; this keeps the two
 * telling the same story: every table the migrations make is in `DB` and no other, each with the
 * same columns, and a column may hold null in the type exactly when it may in the database
 * (generated columns aside: the database cannot say whether their expression yields null).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import ts from 'typescript';
import type { Database } from './database.ts';
import { testBackends } from './testing.ts';

/** Tables the migration runner keeps for itself, outside the query layer's types. */
const RUNNER_TABLES = new Set(['schema_migrations']);

/** `generated`: computed by the database, whose nullability follows its expression, not a constraint it reports. */
type Columns = Record<string, { nullable: boolean; generated?: boolean }>;

/**
 * Whether a column's type, as it is read, includes null: `T | null`, or Kysely's wrappers whose
 * first argument is the type read (`Generated<T>`, `ColumnType<Select, Insert, Update>`).
 */
function readsNull(type: ts.TypeNode): boolean {
  if (ts.isUnionTypeNode(type)) return type.types.some(readsNull);
  if (ts.isLiteralTypeNode(type)) return type.literal.kind === ts.SyntaxKind.NullKeyword;
  if (ts.isTypeReferenceNode(type) && ['Generated', 'ColumnType'].includes(type.typeName.getText()) && type.typeArguments?.[0])
    return readsNull(type.typeArguments[0]);
  return false;
}

/** Each table of `DB` in schema.ts with its columns, read from the source by the TypeScript parser. */
function declaredTables(): Record<string, Columns> {
  const file = path.join(import.meta.dirname, 'schema.ts');
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const interfaces = new Map<string, ts.InterfaceDeclaration>();
  source.forEachChild((node) => {
    if (ts.isInterfaceDeclaration(node)) interfaces.set(node.name.text, node);
  });
  const members = (name: string) => {
    const declaration = interfaces.get(name);
    assert.ok(declaration, `interface ${name} is declared in schema.ts`);
    return declaration.members.filter(ts.isPropertySignature);
  };
  const tables: Record<string, Columns> = {};
  for (const table of members('DB')) {
    const rowType = table.type!.getText(source);
    const columns: Columns = {};
    for (const column of members(rowType)) {
      columns[column.name.getText(source)] = { nullable: readsNull(column.type!) };
    }
    tables[table.name.getText(source)] = columns;
  }
  return tables;
}

async function migratedTables(db: Database): Promise<Record<string, Columns>> {
  const { rows } = await sql<{ table_name: string; column_name: string; is_nullable: string; is_generated: string }>`
    select c.table_name, c.column_name, c.is_nullable, c.is_generated
    from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
    order by c.table_name, c.ordinal_position`.execute(db);
  const tables: Record<string, Columns> = {};
  for (const row of rows) {
    if (RUNNER_TABLES.has(row.table_name)) continue;
    (tables[row.table_name] ??= {})[row.column_name] = { nullable: row.is_nullable === 'YES', generated: row.is_generated === 'ALWAYS' };
  }
  return tables;
}

const sorted = (record: Record<string, unknown>) => Object.keys(record).sort();

for (const backend of testBackends()) {
  describe(`schema.ts against the migrations [${backend.name}]`, () => {
    let db: Database;
    let close: () => Promise<void>;
    before(async () => ({ db, close } = await backend.open()));
    after(() => close());

    test('the same tables, the same columns, null where the database allows it', async () => {
      const declared = declaredTables();
      const migrated = await migratedTables(db);
      assert.deepEqual(sorted(declared), sorted(migrated), 'tables');
      const differences: string[] = [];
      for (const table of sorted(migrated)) {
        assert.deepEqual(sorted(declared[table]!), sorted(migrated[table]!), `${table}: columns`);
        for (const column of sorted(migrated[table]!)) {
          const [inType, inDatabase] = [declared[table]![column]!.nullable, migrated[table]![column]!.nullable];
          if (inType !== inDatabase && !migrated[table]![column]!.generated)
            differences.push(`${table}.${column}: ${inDatabase ? 'may be null in the database, not in the type' : 'null in the type, never in the database'}`);
        }
      }
      assert.deepEqual(differences, []);
    });
  });
}
