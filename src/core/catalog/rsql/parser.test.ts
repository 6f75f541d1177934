import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_FILTER_LENGTH, MAX_NESTING, parseRsql, RsqlError, type RsqlExpression } from './parser.ts';

/** A compact rendering of the tree: `and(a==x, or(...))`, values as their wildcard parts joined by `*`. */
function shape(expression: RsqlExpression): string {
  if (expression.kind !== 'comparison') return `${expression.kind}(${expression.operands.map(shape).join(', ')})`;
  const values = expression.values.map((value) => value.parts.join('*'));
  const isList = expression.operator === '=in=' || expression.operator === '=out=';
  return `${expression.field}${expression.operator}${isList ? `[${values.join('|')}]` : values[0]}`;
}

function rejects(text: string, message: RegExp) {
  assert.throws(
    () => parseRsql(text),
    (error: unknown) => {
      assert.ok(error instanceof RsqlError, String(error));
      assert.match(error.message, message);
      return true;
    },
    text,
  );
}

describe('parseRsql', () => {
  it('reads every operator, with =lt= =le= =gt= =ge= as aliases', () => {
    const cases: Array<[string, string]> = [
      ['a==1', 'a==1'],
      ['a!=1', 'a!=1'],
      ['a<1', 'a<1'],
      ['a<=1', 'a<=1'],
      ['a>1', 'a>1'],
      ['a>=1', 'a>=1'],
      ['a=lt=1', 'a<1'],
      ['a=le=1', 'a<=1'],
      ['a=gt=1', 'a>1'],
      ['a=ge=1', 'a>=1'],
      ['a=in=(1,2)', 'a=in=[1|2]'],
      ['a=out=(1)', 'a=out=[1]'],
    ];
    for (const [text, expected] of cases) assert.equal(shape(parseRsql(text)), expected, text);
  });

  it('binds and tighter than or: a;b,c is (a;b),c and a,b;c is a,(b;c)', () => {
    assert.equal(shape(parseRsql('a==1;b==2,c==3')), 'or(and(a==1, b==2), c==3)');
    assert.equal(shape(parseRsql('a==1,b==2;c==3')), 'or(a==1, and(b==2, c==3))');
    assert.equal(shape(parseRsql('a==1;(b==2,c==3)')), 'and(a==1, or(b==2, c==3))');
    assert.equal(shape(parseRsql('a==1;b==2;c==3')), 'and(a==1, b==2, c==3)');
  });

  it('accepts the keywords and / or in any case, and white space between tokens', () => {
    assert.equal(shape(parseRsql('a==1 and b==2 OR c==3')), 'or(and(a==1, b==2), c==3)');
    assert.equal(shape(parseRsql(' ( a == 1 )And(b =in= ( 1 , 2 ) ) ')), 'and(a==1, b=in=[1|2])');
    assert.equal(shape(parseRsql('a=="x"or b==2')), 'or(a==x, b==2)');
    rejects('a==1 andb==2', /expected ";", ",", "and", "or" or the end, found "a" at position 6/);
  });

  it('reads quoted values with escapes, and keeps reserved characters in them', () => {
    const value = (text: string) => (parseRsql(text) as { values: Array<{ parts: string[] }> }).values[0]!.parts;
    assert.deepEqual(value(`a=="it's; (a,b) == c"`), ["it's; (a,b) == c"]);
    assert.deepEqual(value(`a=='say "hi"'`), ['say "hi"']);
    assert.deepEqual(value(`a=="a \\"quoted\\" \\\\ word"`), ['a "quoted" \\ word']);
    assert.deepEqual(value('a==x\\ y'), ['x y']);
    assert.deepEqual(value('a==""'), ['']);
    rejects('a=="open', /unterminated quoted value starting at position 4/);
    rejects('a==x\\', /a backslash must be followed by the character it escapes at position 5/);
  });

  it('splits values at unescaped * wildcards; \\* is a literal asterisk; % and _ are plain text', () => {
    const value = (text: string) => (parseRsql(text) as { values: Array<{ parts: string[] }> }).values[0]!.parts;
    assert.deepEqual(value('a==*love*'), ['', 'love', '']);
    assert.deepEqual(value('a==lo*ve'), ['lo', 've']);
    assert.deepEqual(value('a=="*quoted*"'), ['', 'quoted', '']);
    assert.deepEqual(value('a==\\*star\\*'), ['*star*']);
    assert.deepEqual(value('a==100%_off'), ['100%_off']);
  });

  it('reports what is wrong and where, 1-based', () => {
    rejects('', /expected a field name, found the end of the filter at position 1/);
    rejects('a==1;', /expected a field name, found the end of the filter at position 6/);
    rejects('a', /expected an operator after "a", found the end of the filter at position 2/);
    rejects('a=~1', /unknown operator "=" at position 2; operators: == != < <= > >= =lt= =le= =gt= =ge= =in= =out=/);
    rejects('a=like=1', /unknown operator "=like=" at position 2/);
    rejects('a==', /expected a value, found the end of the filter at position 4/);
    rejects('a==(1,2)', /== takes a single value, not a list at position 4/);
    rejects('a=in=1', /=in= takes a parenthesized list like \(a,b\), found "1" at position 6/);
    rejects('a=in=()', /expected a value, found "\)" at position 7/);
    rejects('a=in=(1 2)', /expected "," or "\)" in the list of =in=, found "2" at position 9/);
    rejects('(a==1', /expected "\)" to close the "\(" at position 1, found the end of the filter at position 6/);
    rejects('a==1)', /unexpected "\)" at position 5/);
    rejects('1a==1', /expected a field name, found "1" at position 1/);
  });

  it(`limits nesting to ${MAX_NESTING} parentheses`, () => {
    const nested = (depth: number) => `${'('.repeat(depth)}a==1${')'.repeat(depth)}`;
    assert.equal(shape(parseRsql(nested(MAX_NESTING))), 'a==1');
    rejects(nested(MAX_NESTING + 1), new RegExp(`parentheses nested deeper than ${MAX_NESTING} at position ${MAX_NESTING + 1}`));
  });

  it(`limits filters to ${MAX_FILTER_LENGTH} characters`, () => {
    const longest = `a==${'x'.repeat(MAX_FILTER_LENGTH - 3)}`;
    assert.equal(parseRsql(longest).kind, 'comparison');
    rejects(`${longest}x`, /filter is 2049 characters long, more than 2048/);
  });

  it('reads injection attempts as values or rejects them; nothing passes through as syntax', () => {
    assert.equal(shape(parseRsql(`title=="x' or 1=1 --"`)), "title==x' or 1=1 --");
    rejects('title==x);drop table tracks', /unexpected "\)" at position 9/);
    rejects("title==x' or '1'='1", /expected ";", ",", "and", "or" or the end, found "'" at position 9/);
    rejects('title==x;drop table tracks', /expected an operator after "drop", found "t" at position 15/);
  });
});
