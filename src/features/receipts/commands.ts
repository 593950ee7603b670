import type { Command } from '../../lib/commands.ts';

/**
 * The receipts feature's palette command: "Upload receipts" goes to the inbox and asks it to
 * focus its file button once mounted (Enter or Space there opens the picker or the camera).
 */
let uploadFocusRequested = false;

/** Read once by the page as it mounts. */
export function takeUploadFocusRequest(): boolean {
  const requested = uploadFocusRequested;
  uploadFocusRequested = false;
  return requested;
}

export const receiptsCommands: readonly Command[] = [
  {
    id: 'receipts.upload',
    label: 'Upload receipts',
    group: 'Receipts',
    keywords: ['receipt', 'photo', 'scan', 'camera', 'match', 'inbox'],
    run: (ctx) => {
      uploadFocusRequested = true;
      ctx.navigate('/receipts');
    },
  },
];
