/** SIGN-9/10: the JWKS document with the production and sandbox ES256 public keys. */
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context.ts';

export function registerJwks(app: FastifyInstance, ctx: ServiceContext): void {
  app.get('/.well-known/service/jwks.json', async (_req, reply) => {
    const doc = ctx.ring.jwks();
    // SIGN-9 broken on purpose by jwks-private-d: a private member beside each public key (not the real one).
    const keys = ctx.faults.has('jwks-private-d')
      ? doc.keys.map((k) => ({ ...k, d: Buffer.from(`not-the-key-${k.kid}`).toString('base64url') }))
      : doc.keys;
    return reply.type('application/json').send({ keys });
  });
}
