import { useId, useState, type KeyboardEvent } from 'react';
import { flushSync } from 'react-dom';
import { useNavigate } from '@tanstack/react-router';
import { Modal } from '../components/modal.tsx';
import { filterCommands, type Command } from '../lib/commands.ts';
import { isMacPlatform, shortcutById, shortcutKeys } from '../lib/shortcuts.ts';

export interface CommandPaletteProps {
  commands: readonly Command[];
  onClose(): void;
}

/**
 * ⌘K / Ctrl+K: a dialog holding a combobox (the input) and its listbox of commands. Typing
 * filters (`filterCommands`: prefix, word, substring, then letters in order), ArrowUp/Down move,
 * Enter or a click runs the highlighted command, Escape closes and focus goes back to where it was.
 */
export function CommandPalette({ commands, onClose }: CommandPaletteProps) {
  const id = useId();
  const listId = `${id}-list`;
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const shown = filterCommands(commands, query);
  const current = Math.min(active, shown.length - 1);
  const mac = isMacPlatform(navigator.platform);

  function run(command: Command | undefined) {
    if (!command) return;
    // Close first (focus returns to the opener), so what the command focuses or opens keeps focus.
    flushSync(onClose);
    command.run({ navigate: (to) => void navigate({ to } as Parameters<typeof navigate>[0]) });
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'Enter') {
      e.preventDefault();
      run(shown[current]);
    } else if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && shown.length > 0) {
      e.preventDefault();
      const to = (current + (e.key === 'ArrowDown' ? 1 : -1) + shown.length) % shown.length;
      setActive(to);
      document.getElementById(`${id}-opt-${to}`)?.scrollIntoView({ block: 'nearest' });
    }
  }

  return (
    <Modal title="Command palette" onClose={onClose} closeOnBackdrop>
      <div className="palette">
        <label htmlFor={`${id}-input`} className="sr-only">
          Type a command
        </label>
        <input
          id={`${id}-input`}
          type="text"
          role="combobox"
          className="palette-input"
          placeholder="Type a command…"
          autoComplete="off"
          spellCheck={false}
          autoFocus
          aria-expanded="true"
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={current >= 0 ? `${id}-opt-${current}` : undefined}
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
        <ul id={listId} role="listbox" aria-label="Commands" className="palette-list">
          {shown.length === 0 && (
            <li role="option" aria-selected={false} aria-disabled="true" className="combobox-empty">
              No matching commands
            </li>
          )}
          {shown.map((c, i) => (
            <li
              key={c.id}
              id={`${id}-opt-${i}`}
              role="option"
              aria-selected={i === current}
              className={i === current ? 'palette-option active' : 'palette-option'}
              onMouseDown={(e) => e.preventDefault()}
              onMouseMove={() => i !== current && setActive(i)}
              onClick={() => run(c)}
            >
              <span className="palette-label">{c.label}</span>
              <span className="palette-group">{c.group}</span>
              {c.shortcut && (
                <span className="palette-keys" aria-hidden="true">
                  {shortcutKeys(shortcutById(c.shortcut), mac)[0]!.map((k) => (
                    <kbd key={k}>{k}</kbd>
                  ))}
                </span>
              )}
            </li>
          ))}
        </ul>
      </div>
    </Modal>
  );
}
