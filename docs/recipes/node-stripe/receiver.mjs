/**
 * A complete host receiver verifying HMAC-mode signatures with stripe-node. Settings from the
 * environment (../node/server.mjs settingsFromEnv); SERVICE_HMAC_SECRET is required. RECIPE_BARE=1
 * uses signature.verifyHeader alone: what not to do (node-stripe.md).
 */
import { settingsFromEnv, startReceiver } from '../node/server.mjs';
import { stripeVerifier } from './verify.mjs';

const settings = settingsFromEnv();
if (settings.secrets.length === 0) throw new Error('SERVICE_HMAC_SECRET is required: the workspace HMAC secret');
await startReceiver(settings, stripeVerifier(settings));
