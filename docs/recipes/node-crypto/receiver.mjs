/**
 * A complete host receiver with node:crypto alone: HMAC when SERVICE_HMAC_SECRET is set, JWKS when
 * SERVICE_JWKS_URL is. Settings from the environment (../node/server.mjs settingsFromEnv).
 * Run: PORT=3000 SERVICE_HMAC_SECRET=... SERVICE_DATA_API_URL=... SERVICE_DATA_API_TOKEN=... SERVICE_WORKSPACE_KEY=...
 * node receiver.mjs
 */
import { settingsFromEnv, startReceiver } from '../node/server.mjs';
import { cryptoVerifier } from './verify.mjs';

const settings = settingsFromEnv();
if (settings.secrets.length === 0 && !settings.jwksUrl)
  throw new Error('set SERVICE_HMAC_SECRET (HMAC mode) or SERVICE_JWKS_URL (JWKS mode)');
await startReceiver(settings, cryptoVerifier(settings));
