import { Fragment, useId } from 'react';
import { Button } from '../components/button.tsx';
import { Modal } from '../components/modal.tsx';
import { isMacPlatform, shortcutKeys, shortcutsByGroup } from '../lib/shortcuts.ts';

/** '?': every shortcut of the registry (`lib/shortcuts.ts`), by group — never a second list. */
export function ShortcutsDialog({ onClose }: { onClose(): void }) {
  const id = useId();
  const mac = isMacPlatform(navigator.platform);
  return (
    <Modal title="Keyboard shortcuts" description="Keys work when you are not typing in a field." onClose={onClose} closeOnBackdrop size="lg">
      <div className="shortcut-groups">
        {shortcutsByGroup().map(({ group, shortcuts }, g) => (
          <section key={group} aria-labelledby={`${id}-g${g}`} className="shortcut-group">
            <h3 id={`${id}-g${g}`}>{group}</h3>
            <dl className="shortcut-list">
              {shortcuts.map((s) => (
                <div key={s.id} className="shortcut-row">
                  <dt>{s.label}</dt>
                  <dd>
                    {shortcutKeys(s, mac).map((combo, i) => (
                      <Fragment key={i}>
                        {i > 0 && <span className="shortcut-or"> or </span>}
                        {combo.map((k, j) => (
                          <Fragment key={j}>
                            {j > 0 && <span className="sr-only"> plus </span>}
                            <kbd className="shortcut-key">{k}</kbd>
                          </Fragment>
                        ))}
                      </Fragment>
                    ))}
                  </dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
      <div className="modal-actions">
        <Button onClick={onClose}>Close</Button>
      </div>
    </Modal>
  );
}
