import { useEffect, useRef, useState } from 'react';
import { registerSW } from 'virtual:pwa-register';
import { Button } from '../components/button.tsx';

/**
 * The service worker update prompt. registerType is 'prompt': a new version waits until the
 * user reloads, because an open tab may be mid-edit.
 */
export function UpdatePrompt() {
  const [needRefresh, setNeedRefresh] = useState(false);
  const update = useRef<((reload?: boolean) => Promise<void>) | null>(null);

  useEffect(() => {
    if (!('serviceWorker' in navigator)) return;
    update.current = registerSW({
      immediate: true,
      onNeedRefresh: () => setNeedRefresh(true),
    });
  }, []);

  if (!needRefresh) return null;
  return (
    <div className="update-prompt" role="region" aria-label="Update">
      <span>A new version is available</span>
      <Button variant="primary" size="sm" onClick={() => void update.current?.(true)}>
        Reload
      </Button>
      <Button variant="ghost" size="sm" onClick={() => setNeedRefresh(false)}>
        Later
      </Button>
    </div>
  );
}
