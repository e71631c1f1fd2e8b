import { PROVIDER_MULTIPLIER } from '../../src/billing/pricing.js';

/** While model-1.5-pro costs more than model-2.0-flash, it must beat it by 0.02 on every
 *  sentiment and intent measure (docs/enrichment.md); at the same price there is no such floor. */
export const PRO_MARGIN: number | undefined =
  PROVIDER_MULTIPLIER['model-1.5-pro'] > PROVIDER_MULTIPLIER['model-2.0-flash'] ? 0.02 : undefined;
