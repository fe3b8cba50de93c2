/**
 * Webhook signing for receivers and senders (no capability code: the event types live in workflows/webhooks/contract.ts):
 * `verifyWebhookSignature` is what a receiver calls on every delivery (see the README).
 */
export {
  verifyWebhookSignature,
  parseSignatureHeader,
  computeSignature,
  computeStandardSignature,
  standardWebhooksSecret,
  type VerifyWebhookSignatureOptions,
} from './signing';
export { WEBHOOK_SECRET_PREFIX } from './secrets';
