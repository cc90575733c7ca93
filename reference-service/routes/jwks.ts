/** SIGN-9/10: the JWKS document with the production and sandbox ES256 public keys. */
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context.ts';

export function registerJwks(app: FastifyInstance, ctx: ServiceContext): void {
  app.get('/.well-known/service/jwks.json', async (_req, reply) => reply.type('application/json').send(ctx.ring.jwks()));
}
