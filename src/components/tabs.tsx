import { useId, useRef, type ReactNode } from 'react';
import { rovingTarget } from './roving.ts';

export interface TabItem<K extends string> {
  key: K;
  label: string;
  panel: ReactNode;
}

export interface TabsProps<K extends string> {
  /** Names the tab list. */
  label: string;
  tabs: readonly TabItem<K>[];
  selected: K;
  onSelect(key: K): void;
}

/**
 * Tabs (WAI-ARIA APG, automatic activation): one tab stop, Left/Right/Home/End move and select,
 * the panel is named by its tab. Controlled, so a caller can keep the selection in the URL.
 */
export function Tabs<K extends string>({ label, tabs, selected, onSelect }: TabsProps<K>) {
  const base = useId();
  const list = useRef<HTMLDivElement>(null);
  const current = tabs.find((t) => t.key === selected) ?? tabs[0];
  const tabId = (key: string) => `${base}-tab-${key}`;
  const panelId = (key: string) => `${base}-panel-${key}`;
  return (
    <div className="tabs">
      <div
        ref={list}
        role="tablist"
        aria-label={label}
        className="tabs-list"
        onKeyDown={(e) => {
          const index = tabs.findIndex((t) => t.key === current?.key);
          const to = rovingTarget(e.key, index, tabs.length, 'horizontal');
          const next = to === null ? undefined : tabs[to];
          if (!next) return;
          e.preventDefault();
          onSelect(next.key);
          list.current?.querySelector<HTMLElement>(`#${CSS.escape(tabId(next.key))}`)?.focus();
        }}
      >
        {tabs.map((t) => (
          <button
            key={t.key}
            id={tabId(t.key)}
            type="button"
            role="tab"
            className="tab"
            aria-selected={t.key === current?.key}
            aria-controls={panelId(t.key)}
            tabIndex={t.key === current?.key ? 0 : -1}
            onClick={() => onSelect(t.key)}
          >
            {t.label}
          </button>
        ))}
      </div>
      {current && (
        <div id={panelId(current.key)} role="tabpanel" aria-labelledby={tabId(current.key)} className="tab-panel" tabIndex={0}>
          {current.panel}
        </div>
      )}
    </div>
  );
}
