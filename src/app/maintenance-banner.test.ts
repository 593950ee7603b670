import { describe, expect, it } from 'vitest';
import { maintenanceText } from './maintenance-banner.tsx';

const at = (iso: string) => `at ${iso}`;

describe('maintenanceText', () => {
  it('says nothing when no window is on', () => {
    expect(maintenanceText({ active: false, until: null, message: null }, at)).toBeNull();
  });
  it('names the end, the operator message and what still works', () => {
    const text = maintenanceText({ active: true, until: '2026-12-01T02:00:00Z', message: 'Database upgrade' }, at);
    expect(text).toBe(
      'Scheduled maintenance until at 2026-12-01T02:00:00Z. Database upgrade. You can keep reading and capturing: changes you make wait on this device and are sent when it ends. Settings and payments can’t be changed until then.',
    );
  });
  it('keeps a message that already ends a sentence, and omits an unknown end', () => {
    expect(maintenanceText({ active: true, until: null, message: 'Back soon!' }, at)).toMatch(/^Scheduled maintenance\. Back soon! You can/);
  });
});
