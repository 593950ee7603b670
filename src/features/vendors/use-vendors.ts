import { useEffect, useMemo, useState } from 'react';
import type { Vendor } from '../../../schema/entities/vendor.ts';
import type { DataClient } from '../../data-access/types.ts';
import { overlayAnswers, type Answers } from './vendor-view.ts';

/**
 * The business's vendors from the mirror (reference data the worker holds), null until the
 * first answer; re-read when the worker says reference data changed. `answers` are the vendors
 * the server just answered a call with: shown at once, until the feed brings the same or newer.
 */
export function useVendors(client: DataClient, version: number, answers: Answers): Vendor[] | null {
  const [mirror, setMirror] = useState<Vendor[] | null>(null);
  useEffect(() => {
    let live = true;
    void client.referenceData().then((d) => {
      if (live) setMirror(d.vendors);
    });
    return () => {
      live = false;
    };
  }, [client, version]);
  return useMemo(() => (mirror ? overlayAnswers(mirror, answers) : null), [mirror, answers]);
}
