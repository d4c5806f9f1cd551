import { z } from '../zod';

export const eventActorSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('STAFF'), user_id: z.uuid() }),
  z.object({ type: z.literal('DISCLOSER') }),
  z.object({ type: z.literal('SYSTEM') }),
]);
export type EventActor = z.infer<typeof eventActorSchema>;

/** Every event on the bus: `{id, name, version, company_id, occurred_at, payload}`. Payloads never carry report content. */
export const eventEnvelopeSchema = z.object({
  id: z.uuid(),
  name: z.string().regex(/^[a-z]+(\.[a-z_]+)+$/),
  version: z.number().int().positive(),
  company_id: z.uuid().nullable(),
  occurred_at: z.iso.datetime({ offset: true }),
  payload: z.record(z.string(), z.unknown()),
  /**
   * Who caused the event, for the audit trail: a staff user, the discloser (no account) or the
   * platform itself. Optional so events written before it existed still parse; absent = SYSTEM.
   */
  actor: eventActorSchema.optional(),
});

export type EventEnvelope<P = Record<string, unknown>> = Omit<z.infer<typeof eventEnvelopeSchema>, 'payload'> & {
  payload: P;
};
