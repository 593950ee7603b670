import { describe, expect, it } from 'vitest';
import { logoFileProblem } from './firm-logo.tsx';

describe('logoFileProblem', () => {
  it.each([
    [{ type: 'image/png', size: 512 * 1024 }, null],
    [{ type: 'image/jpeg', size: 10 }, null],
    [{ type: 'image/svg+xml', size: 10 }, 'Choose a PNG or JPEG image.'],
    [{ type: 'image/png', size: 512 * 1024 + 1 }, 'This image is 513 KB: the logo can be at most 512 KB.'],
  ])('%o → %s', (file, want) => expect(logoFileProblem(file)).toBe(want));
});
