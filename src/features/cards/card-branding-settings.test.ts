import { describe, expect, it } from 'vitest';
import { logoFileProblem } from './card-branding-settings.tsx';

describe('card logo file check before upload', () => {
  it('takes PNG and JPEG up to the cap; refuses SVG, other types, oversized and empty files', () => {
    expect(logoFileProblem({ type: 'image/png', size: 10_000 })).toBeNull();
    expect(logoFileProblem({ type: 'image/jpeg', size: 256 * 1024 })).toBeNull();
    expect(logoFileProblem({ type: 'image/svg+xml', size: 500 })).toMatch(/SVG and other formats are not accepted/);
    expect(logoFileProblem({ type: 'image/webp', size: 500 })).toMatch(/PNG or JPEG/);
    expect(logoFileProblem({ type: 'image/png', size: 256 * 1024 + 1 })).toBe('The logo is larger than 256 KB. Export it smaller and try again.');
    expect(logoFileProblem({ type: 'image/png', size: 0 })).toBe('The file is empty.');
  });
});
