/**
 * A complete host receiver verifying JWKS-mode signatures with jose. Settings from the environment
 * (../node/server.mjs settingsFromEnv); SERVICE_JWKS_URL is required. RECIPE_BARE=1 uses
 * createRemoteJWKSet with its defaults: what not to do (node-jose.md).
 */
import { settingsFromEnv, startReceiver } from '../node/server.mjs';
import { joseVerifier } from './verify.mjs';

const settings = settingsFromEnv();
if (!settings.jwksUrl) throw new Error('SERVICE_JWKS_URL is required: the JWKS document of the service');
await startReceiver(settings, joseVerifier(settings));
