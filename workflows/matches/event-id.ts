/**
 * Deterministic domain-event ids: `evt_` + a 128-bit FNV-1a hash of `<matchId>:<type>`, so a
 * retried or replayed emit of the same occurrence is the same event (the emitter and the webhook
 * deliveries collapse on it). Pure (no Node crypto inside workflow code); not a security hash.
 */
const FNV128_OFFSET = BigInt('0x6c62272e07bb014262b821756295c58d');
const FNV128_PRIME = BigInt('0x0000000001000000000000000000013B');
const MASK128 = (BigInt(1) << BigInt(128)) - BigInt(1);

export function domainEventId(matchId: string, type: string): string {
  let h = FNV128_OFFSET;
  const input = `${matchId}:${type}`;
  for (let i = 0; i < input.length; i++) {
    h ^= BigInt(input.charCodeAt(i));
    h = (h * FNV128_PRIME) & MASK128;
  }
  return `evt_${h.toString(16).padStart(32, '0')}`;
}
