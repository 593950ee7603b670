import type { ButtonHTMLAttributes, Ref } from 'react';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';
export type ButtonSize = 'sm' | 'md' | 'lg';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Busy: a spinner before the label, the button disabled and aria-busy. */
  loading?: boolean;
  /** Full width (the signed-out cards). */
  block?: boolean;
  /** A square button holding one glyph: give it an aria-label. */
  icon?: boolean;
  ref?: Ref<HTMLButtonElement>;
}

/** Class names of a button look, for the odd element that must look like one (a link). */
export function buttonClass({ variant = 'secondary', size = 'md', block, icon }: Pick<ButtonProps, 'variant' | 'size' | 'block' | 'icon'>) {
  return ['btn', `btn-${variant}`, size !== 'md' && `btn-${size}`, block && 'btn-block', icon && 'btn-icon'].filter(Boolean).join(' ');
}

/** The one button: a type="button" unless told otherwise, so it never submits a form by accident. */
export function Button({ variant, size, loading = false, block, icon, className, type = 'button', disabled, children, ...rest }: ButtonProps) {
  const classes = [buttonClass({ variant, size, block, icon }), className].filter(Boolean).join(' ');
  return (
    <button {...rest} type={type} className={classes} disabled={disabled || loading} aria-busy={loading || undefined}>
      {loading && <span className="btn-spinner" aria-hidden="true" />}
      {children}
    </button>
  );
}
