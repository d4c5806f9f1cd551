import { z } from 'zod';

/** Every event on the bus: `{id, name, version, company_id, occurred_at, payload}`. Payloads never carry report content. */
export const eventEnvelopeSchema = z.object({
  id: z.uuid(),
  name: z.string().regex(/^[a-z]+(\.[a-z_]+)+$/),
  version: z.number().int().positive(),
  company_id: z.uuid().nullable(),
  occurred_at: z.iso.datetime({ offset: true }),
  payload: z.record(z.string(), z.unknown()),
});

export type EventEnvelope<P = Record<string, unknown>> = Omit<z.infer<typeof eventEnvelopeSchema>, 'payload'> & {
  payload: P;
};
