import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import { ilikeParts } from '../like-pattern.ts';
import { parseRsql, RsqlError, type RsqlComparison, type RsqlExpression, type RsqlOperator, type RsqlValue } from './parser.ts';

export type RsqlFieldType = 'text' | 'integer' | 'timestamp';

/** What a filter field name stands for in SQL: a column expression of the query the filter is applied to. */
export interface RsqlField {
  column: Expression<unknown>;
  type: RsqlFieldType;
}

export type RsqlFields = Readonly<Record<string, RsqlField>>;

const ORDERING_OPERATORS = new Set<RsqlOperator>(['<', '<=', '>', '>=']);
const INT32 = { min: -2_147_483_648, max: 2_147_483_647 };
const DATE = /^(\d{4})-(\d\d)-(\d\d)$/;
const DATE_TIME = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d)(?:\.\d{1,6})?)?(?:Z|[+-](\d\d):(\d\d))$/i;

/** A span of time [from, until): a calendar day, or one instant at the database's microsecond resolution. */
interface TimeRange {
  from: RawBuilder<unknown>;
  until: RawBuilder<unknown>;
}

/**
 * Compiles a filter expression into a WHERE condition over `fields`. Every
 * value is a bound parameter; only operators and column expressions are SQL.
 * Throws RsqlError for syntax errors, unknown fields and ill-typed values.
 */
export function compileRsql(text: string, fields: RsqlFields): RawBuilder<SqlBool> {
  return compileExpression(parseRsql(text), fields);
}

function compileExpression(expression: RsqlExpression, fields: RsqlFields): RawBuilder<SqlBool> {
  if (expression.kind === 'comparison') return compileComparison(expression, fields);
  const operands = expression.operands.map((operand) => compileExpression(operand, fields));
  return sql<SqlBool>`(${sql.join(operands, expression.kind === 'and' ? sql` and ` : sql` or `)})`;
}

function compileComparison(comparison: RsqlComparison, fields: RsqlFields): RawBuilder<SqlBool> {
  const field = fieldOf(comparison, fields);
  checkOperator(comparison, field, fields);
  const predicate = field.type === 'timestamp' ? timePredicate(comparison, field.column) : scalarPredicate(comparison, field);
  // Negations include rows where the column is null: `album!=X` keeps songs without an album.
  const negated = comparison.operator === '!=' || comparison.operator === '=out=';
  return negated ? sql<SqlBool>`not coalesce(${predicate}, false)` : predicate;
}

function fieldOf(comparison: RsqlComparison, fields: RsqlFields): RsqlField {
  // hasOwn: "constructor" or "__proto__" must be unknown fields, not Object.prototype members.
  if (!Object.hasOwn(fields, comparison.field)) {
    throw new RsqlError(`unknown field "${comparison.field}"`, comparison.fieldPosition, `filterable fields: ${Object.keys(fields).join(', ')}`);
  }
  return fields[comparison.field]!;
}

function checkOperator(comparison: RsqlComparison, field: RsqlField, fields: RsqlFields): void {
  const { operator } = comparison;
  if (ORDERING_OPERATORS.has(operator) && field.type === 'text') {
    const ordered = Object.keys(fields).filter((name) => fields[name]!.type !== 'text');
    throw new RsqlError(
      `operator ${operator} orders numbers and dates, but ${comparison.field} is text`,
      comparison.operatorPosition,
      `ordering applies to ${ordered.join(', ')}`,
    );
  }
  const wildcard = comparison.values.find((value) => value.parts.length > 1);
  if (wildcard && (field.type !== 'text' || (operator !== '==' && operator !== '!='))) {
    throw new RsqlError(`wildcard "*" is only allowed with == and != on text fields`, wildcard.position, 'write \\* for a literal asterisk');
  }
}

/** Text compares case-insensitively, like the wildcard match does; `lower(column)` can use an expression index. */
function comparable(field: RsqlField, value: Expression<unknown> | string | number): RawBuilder<unknown> {
  if (field.type !== 'text') return sql`${value}`;
  return typeof value === 'string' ? sql`lower(cast(${value} as text))` : sql`lower(${value})`;
}

function scalarPredicate(comparison: RsqlComparison, field: RsqlField): RawBuilder<SqlBool> {
  const { column } = field;
  const values = comparison.values.map((value) => (field.type === 'integer' ? integerValue(comparison.field, value) : value.parts[0]!));
  const left = comparable(field, column);
  switch (comparison.operator) {
    case '=in=':
    case '=out=':
      return sql<SqlBool>`${left} in (${sql.join(values.map((value) => comparable(field, value)))})`;
    case '==':
    case '!=': {
      const parts = comparison.values[0]!.parts;
      return parts.length > 1 ? ilikeParts(column, parts) : sql<SqlBool>`${left} = ${comparable(field, values[0]!)}`;
    }
    default:
      return sql<SqlBool>`${column} ${sql.raw(comparison.operator)} ${values[0]}`;
  }
}

function timePredicate(comparison: RsqlComparison, column: Expression<unknown>): RawBuilder<SqlBool> {
  const ranges = comparison.values.map((value) => timeRange(comparison.field, value));
  const within = (range: TimeRange) => sql<SqlBool>`(${column} >= ${range.from} and ${column} < ${range.until})`;
  const [range] = ranges as [TimeRange];
  switch (comparison.operator) {
    case '<':
      return sql<SqlBool>`${column} < ${range.from}`;
    case '<=':
      return sql<SqlBool>`${column} < ${range.until}`;
    case '>':
      return sql<SqlBool>`${column} >= ${range.until}`;
    case '>=':
      return sql<SqlBool>`${column} >= ${range.from}`;
    case '==':
    case '!=':
      return within(range);
    case '=in=':
    case '=out=':
      return sql<SqlBool>`(${sql.join(ranges.map(within), sql` or `)})`;
  }
}

function integerValue(field: string, value: RsqlValue): number {
  const text = value.parts[0]!;
  if (!/^[+-]?\d+$/.test(text)) throw new RsqlError(`${field} takes a whole number, found ${JSON.stringify(text)}`, value.position);
  const number = Number(text);
  if (number < INT32.min || number > INT32.max) throw new RsqlError(`${field} value ${text} is out of range`, value.position);
  return number;
}

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

function isCalendarDate(year: number, month: number, day: number): boolean {
  const monthLengths = [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= monthLengths[month - 1]!;
}

/** A date means its whole UTC day, so `createdAt<=2024-01-31` includes the 31st. */
function timeRange(field: string, value: RsqlValue): TimeRange {
  const text = value.parts[0]!;
  const invalid = () =>
    new RsqlError(`${field} takes an ISO 8601 date or date-time, found ${JSON.stringify(text)}`, value.position, 'e.g. 2024-01-31 or 2024-01-31T18:30:00Z');
  const date = DATE.exec(text);
  if (date) {
    if (!isCalendarDate(Number(date[1]), Number(date[2]), Number(date[3]))) throw invalid();
    const dayStart = sql`cast(${text} as timestamp)`;
    return { from: sql`(${dayStart} at time zone 'UTC')`, until: sql`((${dayStart} + interval '1 day') at time zone 'UTC')` };
  }
  const dateTime = DATE_TIME.exec(text);
  if (!dateTime) throw invalid();
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, offsetHours = 0, offsetMinutes = 0] = dateTime
    .slice(1)
    .map((part) => Number(part ?? 0));
  const inRange = hour < 24 && minute < 60 && second < 60 && offsetHours < 24 && offsetMinutes < 60;
  if (!inRange || !isCalendarDate(year, month, day)) throw invalid();
  const instant = sql`cast(${text.toUpperCase()} as timestamptz)`;
  return { from: instant, until: sql`(${instant} + interval '1 microsecond')` };
}
