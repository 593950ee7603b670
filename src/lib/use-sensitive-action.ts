import { useRef, useState } from 'react';
import type { ActionResult } from '../data-access/types.ts';

/**
 * Runs a sensitive action; when the answer asks for a step-up, it remembers the action, shows
 * the step-up prompt, and runs the action again once the user has confirmed it's them.
 */
export function useSensitiveAction() {
  const [prompting, setPrompting] = useState(false);
  const parked = useRef<(() => Promise<void>) | null>(null);

  async function run(action: () => Promise<ActionResult>, onResult: (r: ActionResult) => void): Promise<void> {
    const result = await action();
    if (!result.ok && result.step_up) {
      parked.current = async () => onResult(await action());
      setPrompting(true);
      return;
    }
    onResult(result);
  }

  return {
    prompting,
    run,
    async confirmed() {
      setPrompting(false);
      const again = parked.current;
      parked.current = null;
      await again?.();
    },
    cancelled() {
      parked.current = null;
      setPrompting(false);
    },
  };
}
