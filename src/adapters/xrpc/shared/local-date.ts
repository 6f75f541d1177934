import { Type } from '@sinclair/typebox';

/** A calendar day (YYYY-MM-DD) in the time zone a statistic is counted in. */
export const LocalDate = (description: string) => Type.Optional(Type.String({ format: 'date', description }));
