/**
 * Preview text written for a voice description (auto_generate_text, the "Generate preview text"
 * call): a passage in the voice's language, in the register the description asks for (a story,
 * a cheerful announcement, a calm explanation...), between the text limits. Chosen, not
 * generated: deterministic for the same description.
 */
import { hashSeed } from "../../media/engine/prng.js";
import type { PromptTraits } from "./prompt.js";

type Register = "story" | "bright" | "calm";

const TEXTS: Record<string, Record<Register, string>> = {
  en: {
    story: "Long ago, in a village at the edge of the northern forest, there lived an old clockmaker who could mend anything but his own heart. Every evening he wound the great clock in the square and waited.",
    bright: "Good morning, everyone, and welcome to a brand new day! We have fresh coffee, sunny skies and a great line-up of music for you, so stay with us and let's make this one count.",
    calm: "Take a slow breath in, and let it go. Notice the weight of your shoulders and let them soften. There is nothing you need to do right now, nowhere you need to be. Just listen and rest.",
  },
  de: {
    story: "Vor langer Zeit lebte am Rand des nördlichen Waldes ein alter Uhrmacher, der alles reparieren konnte außer seinem eigenen Herzen. Jeden Abend zog er die große Uhr auf dem Marktplatz auf und wartete.",
    bright: "Guten Morgen und herzlich willkommen zu einem neuen Tag! Es gibt frischen Kaffee, viel Sonne und die beste Musik für euch. Bleibt dran, heute wird ein richtig guter Tag für uns alle!",
    calm: "Atme langsam ein und lass den Atem wieder los. Spüre, wie deine Schultern schwer werden und sich entspannen. Du musst jetzt nichts tun und nirgendwo sein. Hör einfach zu und ruh dich aus.",
  },
  fr: {
    story: "Il y a bien longtemps, dans un village au bord de la forêt du nord, vivait un vieil horloger capable de tout réparer, sauf son propre cœur. Chaque soir, il remontait la grande horloge de la place.",
    bright: "Bonjour à tous et bienvenue dans cette nouvelle journée ! Du café bien chaud, un grand soleil et la meilleure musique vous attendent. Restez avec nous, aujourd'hui va être une belle journée !",
    calm: "Inspirez lentement, puis laissez l'air repartir. Sentez vos épaules devenir lourdes et se détendre. Vous n'avez rien à faire maintenant, nulle part où aller. Écoutez simplement et reposez-vous.",
  },
  es: {
    story: "Hace mucho tiempo, en un pueblo al borde del bosque del norte, vivía un viejo relojero que podía arreglarlo todo menos su propio corazón. Cada tarde daba cuerda al gran reloj de la plaza y esperaba.",
    bright: "¡Buenos días a todos y bienvenidos a un nuevo día! Tenemos café recién hecho, mucho sol y la mejor música para vosotros. Quedaos con nosotros, ¡hoy va a ser un día estupendo!",
    calm: "Respira despacio y deja salir el aire. Nota cómo tus hombros se vuelven pesados y se relajan. Ahora no tienes que hacer nada ni estar en ningún lugar. Solo escucha y descansa un momento.",
  },
  it: {
    story: "Tanto tempo fa, in un villaggio ai margini della foresta del nord, viveva un vecchio orologiaio capace di aggiustare tutto tranne il proprio cuore. Ogni sera caricava il grande orologio della piazza.",
    bright: "Buongiorno a tutti e benvenuti in una nuova giornata! Caffè caldo, tanto sole e la musica migliore vi aspettano. Restate con noi, oggi sarà davvero una giornata fantastica per tutti!",
    calm: "Inspira lentamente e lascia andare il respiro. Senti le spalle farsi pesanti e rilassarsi. Adesso non devi fare nulla, non devi essere da nessuna parte. Ascolta soltanto e riposati un momento.",
  },
  pt: {
    story: "Há muito tempo, numa aldeia à beira da floresta do norte, vivia um velho relojoeiro que sabia consertar tudo, menos o próprio coração. Todas as tardes ele dava corda ao grande relógio da praça.",
    bright: "Bom dia a todos e bem-vindos a um novo dia! Temos café fresquinho, muito sol e a melhor música para vocês. Fiquem com a gente, porque hoje vai ser um dia incrível para todo mundo!",
    calm: "Respire devagar e solte o ar com calma. Sinta os ombros ficarem pesados e relaxarem. Agora você não precisa fazer nada nem estar em lugar nenhum. Apenas escute e descanse um pouco.",
  },
  pl: {
    story: "Dawno temu, w wiosce na skraju północnego lasu, mieszkał stary zegarmistrz, który potrafił naprawić wszystko oprócz własnego serca. Co wieczór nakręcał wielki zegar na rynku i czekał.",
    bright: "Dzień dobry wszystkim i witajcie w nowym dniu! Mamy świeżą kawę, mnóstwo słońca i najlepszą muzykę dla was. Zostańcie z nami, bo dzisiaj będzie naprawdę wspaniały dzień dla wszystkich!",
    calm: "Weź powolny wdech i spokojnie wypuść powietrze. Poczuj, jak ramiona stają się ciężkie i się rozluźniają. Teraz nie musisz nic robić ani nigdzie być. Po prostu słuchaj i odpoczywaj.",
  },
  nl: {
    story: "Lang geleden woonde er in een dorp aan de rand van het noordelijke bos een oude klokkenmaker die alles kon repareren behalve zijn eigen hart. Elke avond wond hij de grote klok op het plein op.",
    bright: "Goedemorgen allemaal en welkom bij een gloednieuwe dag! Er is verse koffie, volop zon en de beste muziek voor jullie. Blijf bij ons, want vandaag wordt echt een geweldige dag voor iedereen!",
    calm: "Adem langzaam in en laat de adem weer gaan. Voel hoe je schouders zwaar worden en ontspannen. Je hoeft nu niets te doen en nergens te zijn. Luister alleen maar en rust even uit.",
  },
  sv: {
    story: "För länge sedan, i en by vid kanten av den norra skogen, bodde en gammal urmakare som kunde laga allt utom sitt eget hjärta. Varje kväll drog han upp den stora klockan på torget och väntade.",
    bright: "God morgon allihop och välkomna till en helt ny dag! Vi har nybryggt kaffe, massor av sol och den bästa musiken till er. Stanna kvar hos oss, för i dag blir en riktigt fantastisk dag!",
    calm: "Andas in långsamt och släpp sedan ut luften. Känn hur axlarna blir tunga och slappnar av. Du behöver inte göra något just nu och inte vara någonstans. Lyssna bara och vila en stund.",
  },
  hi: {
    story: "बहुत समय पहले, उत्तरी जंगल के किनारे बसे एक गाँव में एक बूढ़ा घड़ीसाज़ रहता था, जो अपने दिल के सिवा सब कुछ ठीक कर सकता था। हर शाम वह चौक की बड़ी घड़ी में चाबी भरता और इंतज़ार करता।",
    bright: "सुप्रभात दोस्तों, और एक नए दिन में आपका स्वागत है! ताज़ा चाय, खिली धूप और आपके लिए सबसे अच्छा संगीत तैयार है। हमारे साथ बने रहिए, क्योंकि आज का दिन सचमुच शानदार होने वाला है!",
    calm: "धीरे से साँस अंदर लीजिए, और फिर उसे जाने दीजिए। महसूस कीजिए कि आपके कंधे भारी होकर ढीले पड़ रहे हैं। अभी आपको कुछ करने या कहीं जाने की ज़रूरत नहीं है। बस सुनिए और आराम कीजिए।",
  },
};

function registerFor(traits: PromptTraits, description: string): Register {
  if (traits.energy >= 0.3 || traits.pace >= 0.35) return "bright";
  if (traits.energy <= -0.3 || traits.pace <= -0.35 || traits.breath >= 0.5) return "calm";
  // Otherwise the description picks, so the same description always gets the same text.
  return (["story", "bright", "calm"] as const)[hashSeed("preview-text", description) % 3];
}

export function previewTextFor(traits: PromptTraits, description: string): string {
  const texts = TEXTS[traits.language] ?? TEXTS[traits.promptLanguage] ?? TEXTS.en;
  return texts[registerFor(traits, description)];
}

/** Every text, for tests (each must sit within the preview text limits). */
export const PREVIEW_TEXTS = TEXTS;
