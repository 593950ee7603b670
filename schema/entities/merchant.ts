import { z } from 'zod';

/** Merchants travel inline on transactions (name + category); this is their shape. */
export const merchantSchema = z.object({
  merchant_name: z.string().min(1),
  merchant_category: z.string().min(1),
});
export type Merchant = z.infer<typeof merchantSchema>;
