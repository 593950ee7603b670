import { useId, type ReactNode } from 'react';

export interface SectionProps {
  title: string;
  description?: ReactNode;
  /** Actions on the heading's line (e.g. a button). */
  actions?: ReactNode;
  children: ReactNode;
}

/** A titled card of a page (Settings): a <section> named by its h2. */
export function Section({ title, description, actions, children }: SectionProps) {
  const id = useId();
  return (
    <section className="section" aria-labelledby={id}>
      <div className="section-header">
        <div className="section-row">
          <h2 id={id}>{title}</h2>
          {actions}
        </div>
        {description && <p className="muted">{description}</p>}
      </div>
      <div className="section-body">{children}</div>
    </section>
  );
}

/** One setting inside a section: its own heading and text on the left, the control beside or below. */
export function SettingRow({ title, description, children }: { title: string; description?: ReactNode; children: ReactNode }) {
  const id = useId();
  return (
    <div className="setting" role="group" aria-labelledby={id}>
      <div className="setting-text">
        <h3 id={id}>{title}</h3>
        {description && <p className="muted">{description}</p>}
      </div>
      <div className="setting-control">{children}</div>
    </div>
  );
}
