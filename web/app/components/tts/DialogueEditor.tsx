import type { ClipboardEvent } from "react";
import { countCharacters, sliceCharacters } from "../../lib/characters.js";
import { formatNumber } from "../../lib/format.js";
import {
  assignSpeakerVoices,
  blocksFromSpeakerLines,
  capDialogue,
  dialogueCharacters,
  DIALOGUE_MAX_BLOCKS,
  dialogueMessages,
  newBlockId,
  parseSpeakerLines,
  voiceForNewSpeaker,
  type DialogueBlock,
} from "./dialogue.js";
import type { Voice } from "./wire.js";
import { VoicePicker } from "../voices/VoicePicker.js";

export interface DialogueEditorProps {
  blocks: DialogueBlock[];
  /** Every voice the dialogue may refer to, by id (speakers and defaults). */
  voices: ReadonlyMap<string, Voice>;
  /** Voices offered first to new speakers. */
  starterVoiceIds: readonly string[];
  limit: number;
  warnings: string[];
  onChange: (blocks: DialogueBlock[], warnings: string[]) => void;
  onVoicePicked: (voice: Voice) => void;
  disabled?: boolean;
}

/**
 * Dialogue mode: one block per line, each with its speaker's voice button; Add speaker; remove;
 * pasting "Speaker: text" lines makes one block per line. The block and character caps cut what
 * is over them, with the spec's warnings.
 */
export function DialogueEditor({ blocks, voices, starterVoiceIds, limit, warnings, onChange, onVoicePicked, disabled }: DialogueEditorProps) {
  const total = dialogueCharacters(blocks);

  function commit(next: DialogueBlock[], extra: string[] = []) {
    const capped = capDialogue(next, limit);
    onChange(capped.blocks, [...new Set([...extra, ...capped.warnings])]);
  }

  function setText(index: number, text: string) {
    const before = blocks[index]!;
    const beforeCount = countCharacters(before.text);
    const count = countCharacters(text);
    const others = total - beforeCount;
    // Typing past the cap is cut; shortening text that is already over it is allowed.
    if (others + count > limit && count > beforeCount) {
      const room = Math.max(beforeCount, limit - others);
      onChange(
        blocks.map((b, i) => (i === index ? { ...b, text: sliceCharacters(text, room) } : b)),
        [dialogueMessages.tooManyCharacters(limit)],
      );
      return;
    }
    onChange(
      blocks.map((b, i) => (i === index ? { ...b, text } : b)),
      [],
    );
  }

  function addSpeaker() {
    if (blocks.length >= DIALOGUE_MAX_BLOCKS) return onChange(blocks, [dialogueMessages.tooManyBlocks]);
    const voiceId = voiceForNewSpeaker(blocks, starterVoiceIds) ?? starterVoiceIds[0];
    if (!voiceId) return;
    onChange([...blocks, { id: newBlockId(), voiceId, text: "" }], []);
  }

  function onPaste(index: number, e: ClipboardEvent<HTMLTextAreaElement>) {
    const lines = parseSpeakerLines(e.clipboardData.getData("text/plain"));
    if (!lines) return;
    e.preventDefault();
    const target = blocks[index]!;
    const inDialogue = blocks.map((b) => b.voiceId).filter((id, i, all) => all.indexOf(id) === i);
    const candidateIds = [...inDialogue, ...starterVoiceIds].filter((id, i, all) => all.indexOf(id) === i);
    const candidates = candidateIds.map((id) => ({ voice_id: id, name: voices.get(id)?.name ?? "" }));
    const assigned = assignSpeakerVoices(
      lines.map((l) => l.speaker),
      { currentVoiceId: target.voiceId, candidates },
    );
    const pasted = blocksFromSpeakerLines(lines, assigned);
    const keepTarget = target.text.trim().length > 0;
    if (keepTarget && pasted[0] && lines[0]!.speaker === "") {
      // Text before the first speaker continues the block it was pasted into.
      const [lead, ...rest] = pasted;
      const merged = { ...target, text: `${target.text}${target.text.endsWith(" ") ? "" : " "}${lead!.text}` };
      commit([...blocks.slice(0, index), merged, ...rest, ...blocks.slice(index + 1)]);
      return;
    }
    commit([...blocks.slice(0, index), ...(keepTarget ? [target] : []), ...pasted, ...blocks.slice(index + 1)]);
  }

  function remove(index: number) {
    const next = blocks.filter((_, i) => i !== index);
    onChange(next.length ? next : [{ ...blocks[index]!, id: newBlockId(), text: "" }], []);
  }

  return (
    <div className="dialogue-editor">
      <ol className="dialogue-blocks" aria-label="Dialogue">
        {blocks.map((b, i) => {
          const voice = voices.get(b.voiceId);
          return (
            <li key={b.id} className="dialogue-block">
              <VoicePicker
                variant="compact"
                label={`Speaker voice for line ${i + 1}`}
                value={voice ?? { voice_id: b.voiceId, name: "Unknown voice" }}
                disabled={disabled}
                onChange={(v) => {
                  onVoicePicked(v);
                  onChange(
                    blocks.map((x, j) => (j === i ? { ...x, voiceId: v.voice_id } : x)),
                    [],
                  );
                }}
              />
              <textarea
                className="dialogue-text"
                aria-label={`Line ${i + 1}`}
                placeholder="Type what this speaker says, or paste a dialogue (Name: text, one line each)…"
                rows={2}
                value={b.text}
                disabled={disabled}
                onChange={(e) => setText(i, e.target.value)}
                onPaste={(e) => onPaste(i, e)}
              />
              <button type="button" className="icon-button" aria-label={`Remove line ${i + 1}`} onClick={() => remove(i)} disabled={disabled}>
                ×
              </button>
            </li>
          );
        })}
      </ol>
      <div className="editor-footer">
        <button type="button" className="button button-small" onClick={addSpeaker} disabled={disabled}>
          + Add speaker
        </button>
        <span className="char-count" data-over={total > limit || undefined}>
          {formatNumber(total)} / {formatNumber(limit)}<span className="visually-hidden"> characters</span>
        </span>
      </div>
      {warnings.map((w) => (
        <p key={w} className="inline-warning" role="status">
          {w}
        </p>
      ))}
    </div>
  );
}
