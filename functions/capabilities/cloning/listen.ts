/**
 * How the engine sounds with a profile: it reads a short calibration passage in the profile's
 * language with default settings (as speech will be made with it), and the voice analysis
 * measures the reading. Synthesis runs on the engine's workers, analysis on the analyzer's.
 */
import { int16ToFloat } from "../../media/audio/resample.js";
import type { SpeechEngine, VoiceProfile } from "../../media/engine/port.js";
import type { VoiceAnalyzer } from "../../media/voice-analysis/port.js";
import type { Listen } from "./fit.js";

/** Four sentences per language, written for this purpose (varied vowels, a question, pauses): the engine moves each sentence's pitch a little, as people do, so range is measured over several. */
export const CALIBRATION_PASSAGES: Record<string, string> = {
  en: "The small boat drifted past the old mill while we waited on the bridge. Could you hear the bells ringing across the quiet valley? Nobody answered, so I called again a little louder. By the evening, the wind had turned cold and the river was dark.",
  de: "Das kleine Boot trieb an der alten Mühle vorbei, während wir auf der Brücke warteten. Hörst du die Glocken über dem stillen Tal? Niemand antwortete, also rief ich noch einmal etwas lauter. Am Abend war der Wind kalt geworden und der Fluss dunkel.",
  fr: "Le petit bateau passait devant le vieux moulin pendant que nous attendions sur le pont. Entends-tu les cloches dans la vallée tranquille ? Personne ne répondit, alors j'appelai encore un peu plus fort. Le soir, le vent était devenu froid et la rivière sombre.",
  es: "El pequeño barco pasó junto al viejo molino mientras esperábamos en el puente. ¿Oyes las campanas sobre el valle tranquilo? Nadie contestó, así que llamé otra vez un poco más fuerte. Por la tarde, el viento se había vuelto frío y el río estaba oscuro.",
  it: "La piccola barca passava davanti al vecchio mulino mentre aspettavamo sul ponte. Senti le campane sopra la valle tranquilla? Nessuno rispose, così chiamai di nuovo un po' più forte. Verso sera il vento era diventato freddo e il fiume scuro.",
  pt: "O pequeno barco passou pelo velho moinho enquanto esperávamos na ponte. Você ouve os sinos sobre o vale tranquilo? Ninguém respondeu, então chamei de novo um pouco mais alto. À noite, o vento tinha esfriado e o rio estava escuro.",
  pl: "Mała łódka minęła stary młyn, kiedy czekaliśmy na moście. Czy słyszysz dzwony nad cichą doliną? Nikt nie odpowiedział, więc zawołałem jeszcze raz trochę głośniej. Wieczorem wiatr zrobił się zimny, a rzeka ciemna.",
  nl: "Het kleine bootje dreef langs de oude molen terwijl we op de brug wachtten. Hoor je de klokken over het stille dal? Niemand antwoordde, dus riep ik nog eens wat harder. Tegen de avond was de wind koud geworden en de rivier donker.",
  sv: "Den lilla båten drev förbi den gamla kvarnen medan vi väntade på bron. Hör du klockorna över den stilla dalen? Ingen svarade, så jag ropade igen lite högre. Mot kvällen hade vinden blivit kall och floden mörk.",
  hi: "जब हम पुल पर इंतज़ार कर रहे थे, छोटी नाव पुरानी चक्की के पास से बह गई। क्या तुम शांत घाटी में घंटियाँ सुन सकते हो? किसी ने जवाब नहीं दिया, तो मैंने फिर से थोड़ा ज़ोर से पुकारा। शाम तक हवा ठंडी हो गई थी और नदी अँधेरी।",
};

export function calibrationPassage(language: string): string {
  return CALIBRATION_PASSAGES[language.toLowerCase().split(/[-_]/)[0]] ?? CALIBRATION_PASSAGES.en;
}

export function engineListener(engine: SpeechEngine, analyzer: VoiceAnalyzer, signal?: AbortSignal): Listen {
  return async (profile: VoiceProfile) => {
    const chunks: Int16Array[] = [];
    let rate = engine.sampleRate;
    for await (const c of engine.synthesize(
      {
        text: calibrationPassage(profile.language),
        voice: profile,
        settings: { stability: 0.5, similarity_boost: 0.75, style: 0, use_speaker_boost: true, speed: 1 },
        seed: 1,
        model: { id: "eleven_multilingual_v2", quality: "standard", supportsPhonemes: false },
      },
      signal,
    )) {
      chunks.push(c.pcm);
      rate = c.sampleRate;
    }
    const pcm = new Int16Array(chunks.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const c of chunks) {
      pcm.set(c, at);
      at += c.length;
    }
    return analyzer.analyzeSamples(int16ToFloat(pcm), rate, { signal });
  };
}

