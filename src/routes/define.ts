import type { Static, TObject } from '@sinclair/typebox';
import { type EndpointDef, type EndpointId, endpoint } from '../contract/endpoints.js';
import type { CallContext, Reply } from '../services/billed-call.js';
import type { Services } from '../services/container.js';

export interface ApiRoute {
  def: EndpointDef;
  handler: (services: Services, ctx: CallContext, body: never) => Promise<Reply>;
}

/** A paid API endpoint: its contract entry and the service verb that serves it. */
export function defineRoute<B extends TObject>(
  id: EndpointId,
  _body: B,
  handler: (services: Services, ctx: CallContext, body: Static<B>) => Promise<Reply>,
): ApiRoute {
  return { def: endpoint(id), handler: handler as ApiRoute['handler'] };
}
