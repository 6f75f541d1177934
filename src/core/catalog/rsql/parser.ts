/**
 * RSQL (FIQL-style) filter expressions: syntax only. Which fields exist and
 * what their values mean is the compiler's business.
 *
 *   expression := or
 *   or         := and ( ( "," | "or" ) and )*
 *   and        := term ( ( ";" | "and" ) term )*
 *   term       := "(" or ")" | field operator arguments
 *   arguments  := value | "(" value ( "," value )* ")"      (lists only for =in= / =out=)
 *   value      := 'single quoted' | "double quoted" | unquoted
 *
 * A backslash escapes the next character in any value; an unescaped `*` is a
 * wildcard. White space may separate tokens. Positions are 1-based characters.
 */

export const MAX_FILTER_LENGTH = 2048;
/** Deep enough for any hand-written filter; bounds recursion here and in the database. */
export const MAX_NESTING = 32;

export type RsqlOperator = '==' | '!=' | '<' | '<=' | '>' | '>=' | '=in=' | '=out=';

export interface RsqlValue {
  /** The literal text between wildcards: `a*b` is ["a", "b"], `*a*` is ["", "a", ""]. */
  parts: string[];
  position: number;
}

export interface RsqlComparison {
  kind: 'comparison';
  field: string;
  fieldPosition: number;
  operator: RsqlOperator;
  operatorPosition: number;
  values: RsqlValue[];
}

export interface RsqlLogical {
  kind: 'and' | 'or';
  operands: RsqlExpression[];
}

export type RsqlExpression = RsqlComparison | RsqlLogical;

/** A filter that cannot be used; the message names what is wrong and where. */
export class RsqlError extends Error {
  constructor(
    readonly problem: string,
    readonly position: number,
    readonly hint?: string,
  ) {
    super(`${problem} at position ${position}${hint ? `; ${hint}` : ''}`);
    this.name = 'RsqlError';
  }
}

const OPERATORS: Record<string, RsqlOperator> = {
  '==': '==',
  '!=': '!=',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
  '=lt=': '<',
  '=le=': '<=',
  '=gt=': '>',
  '=ge=': '>=',
  '=in=': '=in=',
  '=out=': '=out=',
};
const OPERATOR_LIST = Object.keys(OPERATORS).join(' ');
const LIST_OPERATORS = new Set<RsqlOperator>(['=in=', '=out=']);

const FIELD_START = /[A-Za-z_]/;
const FIELD_CHAR = /[A-Za-z0-9_.]/;
/** Characters that end an unquoted value; quote them to use them. */
const RESERVED = new Set(['"', "'", '(', ')', ';', ',', '=', '!', '~', '<', '>']);
const isSpace = (char: string | undefined) => char !== undefined && /\s/.test(char);

class Parser {
  #index = 0;

  constructor(private readonly text: string) {}

  parse(): RsqlExpression {
    const expression = this.#or(0);
    this.#skipSpace();
    if (this.#index < this.text.length) {
      const found = this.#peek();
      throw this.#error(found === ')' ? 'unexpected ")"' : `expected ";", ",", "and", "or" or the end, found ${this.#describe()}`);
    }
    return expression;
  }

  #or(depth: number): RsqlExpression {
    const operands = [this.#and(depth)];
    while (this.#combinator(',', 'or')) operands.push(this.#and(depth));
    return operands.length === 1 ? operands[0]! : { kind: 'or', operands };
  }

  #and(depth: number): RsqlExpression {
    const operands = [this.#term(depth)];
    while (this.#combinator(';', 'and')) operands.push(this.#term(depth));
    return operands.length === 1 ? operands[0]! : { kind: 'and', operands };
  }

  /** Consumes a combinator written as its symbol or its keyword. */
  #combinator(symbol: string, keyword: string): boolean {
    this.#skipSpace();
    if (this.#peek() === symbol) {
      this.#index++;
      return true;
    }
    const word = /^[A-Za-z]+/.exec(this.text.slice(this.#index))?.[0];
    if (word?.toLowerCase() === keyword && !FIELD_CHAR.test(this.text[this.#index + word.length] ?? '')) {
      this.#index += word.length;
      return true;
    }
    return false;
  }

  #term(depth: number): RsqlExpression {
    this.#skipSpace();
    if (this.#peek() !== '(') return this.#comparison();
    const open = this.#position();
    if (depth >= MAX_NESTING) throw this.#error(`parentheses nested deeper than ${MAX_NESTING}`);
    this.#index++;
    const inner = this.#or(depth + 1);
    this.#skipSpace();
    if (this.#peek() !== ')') throw this.#error(`expected ")" to close the "(" at position ${open}, found ${this.#describe()}`);
    this.#index++;
    return inner;
  }

  #comparison(): RsqlComparison {
    const fieldPosition = this.#position();
    const field = this.#field();
    this.#skipSpace();
    const operatorPosition = this.#position();
    const operator = this.#operator(field);
    this.#skipSpace();
    const values = LIST_OPERATORS.has(operator) ? this.#list(operator) : [this.#singleValue(operator)];
    return { kind: 'comparison', field, fieldPosition, operator, operatorPosition, values };
  }

  #field(): string {
    if (!FIELD_START.test(this.#peek() ?? '')) throw this.#error(`expected a field name, found ${this.#describe()}`);
    const start = this.#index;
    while (FIELD_CHAR.test(this.#peek() ?? '')) this.#index++;
    return this.text.slice(start, this.#index);
  }

  #operator(field: string): RsqlOperator {
    const rest = this.text.slice(this.#index);
    const written = /^(?:=[A-Za-z]*=|==|!=|<=|>=|<|>|=|!)/.exec(rest)?.[0];
    if (written === undefined) throw this.#error(`expected an operator after "${field}", found ${this.#describe()}`, `operators: ${OPERATOR_LIST}`);
    const operator = OPERATORS[written];
    if (!operator) throw this.#error(`unknown operator "${written}"`, `operators: ${OPERATOR_LIST}`);
    this.#index += written.length;
    return operator;
  }

  #singleValue(operator: RsqlOperator): RsqlValue {
    if (this.#peek() === '(') throw this.#error(`${operator} takes a single value, not a list`);
    return this.#value();
  }

  #list(operator: RsqlOperator): RsqlValue[] {
    if (this.#peek() !== '(') throw this.#error(`${operator} takes a parenthesized list like (a,b), found ${this.#describe()}`);
    this.#index++;
    const values: RsqlValue[] = [];
    for (;;) {
      this.#skipSpace();
      values.push(this.#value());
      this.#skipSpace();
      if (this.#peek() !== ',') break;
      this.#index++;
    }
    if (this.#peek() !== ')') throw this.#error(`expected "," or ")" in the list of ${operator}, found ${this.#describe()}`);
    this.#index++;
    return values;
  }

  #value(): RsqlValue {
    const position = this.#position();
    const quote = this.#peek();
    if (quote === '"' || quote === "'") {
      this.#index++;
      const parts = this.#characters((char) => char === quote);
      if (this.#peek() !== quote) throw new RsqlError(`unterminated quoted value starting`, position);
      this.#index++;
      return { parts, position };
    }
    const parts = this.#characters((char) => RESERVED.has(char) || isSpace(char));
    if (parts.length === 1 && parts[0] === '') throw this.#error(`expected a value, found ${this.#describe()}`);
    return { parts, position };
  }

  /** Reads value characters up to (not including) an unescaped `stop` character or the end. */
  #characters(stop: (char: string) => boolean): string[] {
    const parts = [''];
    for (let char = this.#peek(); char !== undefined && !stop(char); char = this.#peek()) {
      if (char === '\\') {
        const escaped = this.text[this.#index + 1];
        if (escaped === undefined) throw this.#error('a backslash must be followed by the character it escapes');
        parts[parts.length - 1] += escaped;
        this.#index += 2;
      } else {
        if (char === '*') parts.push('');
        else parts[parts.length - 1] += char;
        this.#index++;
      }
    }
    return parts;
  }

  #skipSpace(): void {
    while (isSpace(this.#peek())) this.#index++;
  }

  #peek(): string | undefined {
    return this.text[this.#index];
  }

  #position(): number {
    return this.#index + 1;
  }

  #describe(): string {
    const char = this.#peek();
    return char === undefined ? 'the end of the filter' : JSON.stringify(char);
  }

  #error(problem: string, hint?: string): RsqlError {
    return new RsqlError(problem, this.#position(), hint);
  }
}

/** Parses a filter expression; throws RsqlError for anything malformed. */
export function parseRsql(text: string): RsqlExpression {
  if (text.length > MAX_FILTER_LENGTH) {
    throw new RsqlError(`filter is ${text.length} characters long, more than ${MAX_FILTER_LENGTH}`, MAX_FILTER_LENGTH + 1);
  }
  return new Parser(text).parse();
}
