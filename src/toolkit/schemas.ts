import { Type, type TSchema } from '@sinclair/typebox';

export const ErrorBody = Type.Object(
  { error: Type.String(), message: Type.Optional(Type.String()) },
  { $id: 'ErrorBody', description: 'Body of every non-2xx response' },
);

export const DateTime = (options: { description?: string } = {}) => Type.String({ format: 'date-time', ...options });

/** A value that may be absent from the catalog: present as the type, or omitted. */
export const Maybe = <T extends TSchema>(schema: T) => Type.Optional(schema);

export const Uuid = (options: { description?: string } = {}) => Type.String({ format: 'uuid', ...options });

export const Empty = Type.Object({});

/** Dates leave the API as UTC ISO 8601 without fractional seconds: `YYYY-MM-DDTHH:MM:SSZ`. */
export function isoDateTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
