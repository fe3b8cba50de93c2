/**
 * Public surface of the webhooks capability for receivers and other modules:
 * `verifyWebhookSignature` is what a receiver calls on every delivery (see the README).
 */
export { verifyWebhookSignature, parseSignatureHeader, computeSignature, type VerifyWebhookSignatureOptions } from './signing';
export { WEBHOOK_EVENT_TYPES, WEBHOOK_EVENT_DOCS, type WebhookEventType } from './event-types';
export { WEBHOOK_SECRET_PREFIX } from './secrets';
