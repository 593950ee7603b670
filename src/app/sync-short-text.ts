import { formatCount } from '../lib/format.ts';
import type { SyncView } from '../lib/sync-status-text.ts';

/**
 * The sync indicator's words on a phone's top bar (≤ 767 px, ~160 px left at 360 px beside the
 * logo and the account button): the state in a word or two and, when changes wait, how many, so
 * "Offline · 3 waiting" stays on screen instead of an ellipsis. Shown instead of the full label,
 * which stays in the role="status" element for assistive tech and the tests
 * (tests/support/browser.ts SYNC_TEXT). Pure.
 */
export function syncShortText(view: Pick<SyncView, 'state' | 'label'>, waiting: number): string {
  const count = waiting > 0 ? `${formatCount(waiting)} waiting` : null;
  switch (view.state) {
    case 'offline':
      return count ? `Offline · ${count}` : 'Offline';
    case 'unreachable':
      return count ? `No server · ${count}` : 'No server';
    case 'waiting':
      return `${count ?? '0 waiting'} to sync`;
    case 'attention':
      return count ? `Attention · ${count}` : 'Needs attention';
    case 'downloading':
      return view.label.replace('Downloading for offline use', 'Downloading');
    case 'synced':
      return 'Synced';
    default:
      return view.label;
  }
}
