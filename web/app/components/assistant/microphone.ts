import { ASSISTANT } from "../../../../functions/platform/contract/assistant.js";

/**
 * The support call's microphone when the server transcribes speech (ASSISTANT_TRANSCRIPTION_URL):
 * one utterance at a time, recorded with echo cancellation (El's own voice from the speakers is
 * not heard as the user's) as WebM/Opus at a low bit rate, so that a question of several seconds
 * fits the session's `user_audio` message (ASSISTANT.maxAudioBytes, base64 in one text frame).
 *
 * A level meter (an AnalyserNode, every 50 ms) tells when the user starts speaking (`onSpeech`:
 * the card lowers and stops El's audio, the barge-in) and ends the utterance after a pause; the
 * recording also ends at a length and byte bound, or when the user presses Stop.
 */
export const MIC = {
  mimeTypes: ["audio/webm;codecs=opus", "audio/ogg;codecs=opus"],
  /** About 7 s of speech fit the bound at this rate (Opus stays clear for speech at 12 kbps). */
  bitsPerSecond: 12_000,
  /** §app-shell 10: the generic recorder's chunk. */
  chunkMs: 100,
  meterMs: 50,
  /** RMS above which a frame counts as speech (about -34 dBFS), and how many such frames in a row start it. */
  speechRms: 0.02,
  onsetFrames: 2,
  /** The pause that ends an utterance once speech was heard. */
  endSilenceMs: 1200,
  /** How long to wait for the user to start speaking, and the longest recording (the byte bound usually ends it first). */
  waitForSpeechMs: 4000,
  maxRecordingMs: 10_000,
  /** Bytes kept free under ASSISTANT.maxAudioBytes for the last chunk and the container. */
  byteMargin: 1536,
} as const;

export const micMessages = {
  /** The spec's wording (app-shell.md §8, voice-creation.md §5). */
  denied: "Microphone access denied. Please enable it in your browser settings.",
  noMicrophone: "No microphone was found: connect one, or type your question.",
  unavailable: "Recording is not available in this browser: type your question instead.",
  notHeard: "I did not hear anything: press Speak and ask again, or type your question.",
  tooLong: `That recording is longer than a question may be (${ASSISTANT.maxAudioBytes / 1024} KB): ask in fewer words, or type it.`,
} as const;

export interface Utterance {
  /** Base64 of the recording, as `user_audio` carries it. */
  audio: string;
  mime: "audio/webm" | "audio/ogg";
  bytes: number;
}

export interface MicHandlers {
  /** The user started speaking. */
  onSpeech(): void;
  /** The recording ended: an utterance, or a message for the user (nothing heard, too long). */
  onDone(result: { utterance: Utterance } | { error: string }): void;
}

export class MicError extends Error {}

/** Why the microphone could not be opened, in the user's words. */
export function micFailure(e: unknown): string {
  const name = (e as { name?: string } | null)?.name;
  if (name === "NotAllowedError" || name === "PermissionDeniedError" || name === "SecurityError") return micMessages.denied;
  if (name === "NotFoundError" || name === "DevicesNotFoundError" || name === "OverconstrainedError") return micMessages.noMicrophone;
  if (e instanceof MicError) return e.message;
  return micMessages.unavailable;
}

function toBase64(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result).replace(/^data:[^,]*,/, ""));
    r.onerror = () => reject(r.error);
    r.readAsDataURL(blob);
  });
}

/** One utterance being recorded. `stop()` ends it early (the user pressed Stop); `cancel()` drops it. */
export class UtteranceRecording {
  private chunks: Blob[] = [];
  private bytes = 0;
  private heard = false;
  private cancelled = false;
  private meter: ReturnType<typeof setInterval> | undefined;
  private audioContext: AudioContext | null = null;

  private constructor(
    private readonly stream: MediaStream,
    private readonly recorder: MediaRecorder,
    private readonly mime: Utterance["mime"],
    private readonly handlers: MicHandlers,
  ) {}

  /** Asks for the microphone (rejects with a MicError-like failure: see micFailure) and starts recording. */
  static async start(handlers: MicHandlers): Promise<UtteranceRecording> {
    if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === "undefined") throw new MicError(micMessages.unavailable);
    const type = MIC.mimeTypes.find((t) => MediaRecorder.isTypeSupported(t));
    if (!type) throw new MicError(micMessages.unavailable);
    const stream = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true, channelCount: 1 } });
    let recorder: MediaRecorder;
    try {
      recorder = new MediaRecorder(stream, { mimeType: type, audioBitsPerSecond: MIC.bitsPerSecond });
    } catch {
      stream.getTracks().forEach((t) => t.stop());
      throw new MicError(micMessages.unavailable);
    }
    const rec = new UtteranceRecording(stream, recorder, type.startsWith("audio/ogg") ? "audio/ogg" : "audio/webm", handlers);
    rec.begin();
    return rec;
  }

  private begin(): void {
    const started = Date.now();
    this.recorder.ondataavailable = (e) => {
      if (e.data.size === 0) return;
      this.chunks.push(e.data);
      this.bytes += e.data.size;
      if (this.bytes >= ASSISTANT.maxAudioBytes - MIC.byteMargin) this.stop();
    };
    this.recorder.onstop = () => void this.finish();
    this.recorder.start(MIC.chunkMs);

    this.audioContext = new AudioContext();
    const analyser = this.audioContext.createAnalyser();
    analyser.fftSize = 1024;
    this.audioContext.createMediaStreamSource(this.stream).connect(analyser);
    const frame = new Float32Array(analyser.fftSize);
    let loud = 0;
    let lastVoice = 0;
    this.meter = setInterval(() => {
      const now = Date.now();
      analyser.getFloatTimeDomainData(frame);
      let sum = 0;
      for (const v of frame) sum += v * v;
      const rms = Math.sqrt(sum / frame.length);
      if (rms >= MIC.speechRms) {
        loud++;
        lastVoice = now;
        if (!this.heard && loud >= MIC.onsetFrames) {
          this.heard = true;
          this.handlers.onSpeech();
        }
      } else loud = 0;
      if (this.heard ? now - lastVoice >= MIC.endSilenceMs : now - started >= MIC.waitForSpeechMs) this.stop();
      else if (now - started >= MIC.maxRecordingMs) this.stop();
    }, MIC.meterMs);
  }

  get speaking(): boolean {
    return this.heard;
  }

  stop(): void {
    clearInterval(this.meter);
    if (this.recorder.state !== "inactive") this.recorder.stop();
  }

  cancel(): void {
    this.cancelled = true;
    this.stop();
    this.release();
  }

  private release(): void {
    clearInterval(this.meter);
    this.stream.getTracks().forEach((t) => t.stop());
    void this.audioContext?.close().catch(() => undefined);
    this.audioContext = null;
  }

  private async finish(): Promise<void> {
    this.release();
    if (this.cancelled) return;
    if (!this.heard) return this.handlers.onDone({ error: micMessages.notHeard });
    const blob = new Blob(this.chunks, { type: this.mime });
    if (blob.size > ASSISTANT.maxAudioBytes) return this.handlers.onDone({ error: micMessages.tooLong });
    try {
      this.handlers.onDone({ utterance: { audio: await toBase64(blob), mime: this.mime, bytes: blob.size } });
    } catch {
      this.handlers.onDone({ error: micMessages.unavailable });
    }
  }
}
