/**
 * The words a voice description is read with, in the ten languages voice design understands
 * (English first; German, French, Spanish, Italian, Portuguese, Polish, Dutch, Swedish, Hindi).
 *
 * A term is a word (matched exactly), a stem ending in `*` (the word starts with it and has at
 * most five more letters: inflections and compounds such as "Männerstimme"), or a phrase of
 * several words (matched as consecutive words, each by the same rules).
 */
import { DESCRIPTIVES } from "../../platform/contract/voices.js";

export const PROMPT_LANGUAGES = ["en", "de", "fr", "es", "it", "pt", "pl", "nl", "sv", "hi"] as const;
export type PromptLanguage = (typeof PROMPT_LANGUAGES)[number];
type Terms = Partial<Record<PromptLanguage, string[]>>;

/** What a word does to the voice; scalars are -1..1 (0..1 for breath and rough), summed over the prompt. */
export interface Effect {
  pitch?: number;
  pace?: number;
  /** Intonation range and liveliness. */
  energy?: number;
  breath?: number;
  /** Negative darker (larger vocal tract), positive brighter. */
  timbre?: number;
  rough?: number;
  /** Nasal resonance (0..1). */
  nasal?: number;
  /** A gentle source: a steeper spectral tilt (0..1). */
  soft?: number;
  loud?: number;
  /** A soft pull towards an age when none is named (wise, mature). */
  ageBias?: "young" | "old";
}

export interface LexiconEntry {
  id: string;
  terms: Terms;
  effect: Effect;
}

export const GENDER_TERMS: Record<"male" | "female" | "neutral", Terms> = {
  male: {
    en: ["man", "men", "male", "guy", "gentleman", "gentlemen", "boy", "father", "dad", "grandfather", "grandpa", "he", "his", "him", "husband", "king", "butler", "baritone", "bass", "masculine", "brother", "son", "uncle", "sir", "wizard", "monk"],
    de: ["mann*", "männer*", "männlich*", "herr", "herrn", "vater", "großvater", "opa", "er", "seine*", "bruder", "sohn", "onkel", "märchenerzähler", "erzähler"],
    fr: ["homme", "hommes", "masculin*", "monsieur", "garçon", "père", "grand-père", "papi", "il", "frère", "fils", "oncle", "narrateur"],
    es: ["hombre", "hombres", "masculin*", "señor", "chico", "padre", "abuelo", "él", "hermano", "hijo", "tío", "narrador"],
    it: ["uomo", "uomini", "maschil*", "signore", "ragazzo", "padre", "nonno", "lui", "fratello", "figlio", "zio", "narratore"],
    pt: ["homem", "homens", "masculin*", "senhor", "rapaz", "menino", "pai", "avô", "ele", "irmão", "filho", "tio", "narrador"],
    pl: ["mężczyzn*", "męsk*", "pan", "chłopak", "chłopiec", "ojciec", "dziadek", "on", "brat", "syn", "wujek", "narrator"],
    nl: ["man", "mannen", "mannelijk*", "meneer", "jongen", "vader", "opa", "hij", "zijn", "broer", "zoon", "oom", "verteller"],
    sv: ["man", "mannen", "män", "manlig*", "herre", "pojke", "kille", "far", "pappa", "farfar", "morfar", "han", "hans", "bror", "son", "berättare"],
    hi: ["पुरुष", "आदमी", "लड़का", "लड़के", "मर्दाना", "मर्दानी", "पिता", "दादा", "नाना", "भाई", "बेटा"],
  },
  female: {
    en: ["woman", "women", "female", "lady", "ladies", "girl", "mother", "mom", "mum", "grandmother", "grandma", "she", "her", "hers", "wife", "queen", "feminine", "sister", "daughter", "aunt", "soprano", "madam", "witch", "actress"],
    de: ["frau", "frauen*", "weiblich*", "dame", "mädchen", "mutter", "großmutter", "oma", "ihre*", "schwester", "tochter", "tante", "erzählerin", "sprecherin"],
    fr: ["femme", "femmes", "féminin*", "madame", "dame", "fille", "mère", "grand-mère", "mamie", "elle", "sœur", "soeur", "tante", "narratrice"],
    es: ["mujer", "mujeres", "femenin*", "señora", "dama", "chica", "niña", "madre", "abuela", "ella", "hermana", "hija", "tía", "narradora"],
    it: ["donna", "donne", "femminil*", "signora", "ragazza", "madre", "nonna", "lei", "sorella", "figlia", "zia", "narratrice"],
    pt: ["mulher", "mulheres", "feminin*", "senhora", "moça", "menina", "mãe", "avó", "ela", "irmã", "filha", "tia", "narradora"],
    pl: ["kobiet*", "kobiec*", "pani", "dziewczyn*", "matka", "mama", "babcia", "ona", "siostra", "córka", "ciocia", "narratorka"],
    nl: ["vrouw", "vrouwen", "vrouwelijk*", "mevrouw", "dame", "meisje", "moeder", "oma", "zij", "haar", "zus", "dochter", "tante", "vertelster"],
    sv: ["kvinna", "kvinnan", "kvinnor", "kvinnlig*", "dam", "flicka", "tjej", "mor", "mamma", "mormor", "farmor", "hon", "hennes", "syster", "dotter", "berätterska"],
    hi: ["महिला", "औरत", "लड़की", "स्त्री", "माँ", "दादी", "नानी", "बहन", "बेटी", "ज़नाना"],
  },
  neutral: {
    en: ["androgynous", "gender-neutral", "gender neutral", "non-binary", "nonbinary", "neutral"],
    de: ["androgyn*", "geschlechtsneutral*", "nichtbinär*"],
    fr: ["androgyne", "neutre", "non-binaire"],
    es: ["andrógin*", "neutr*", "no binari*"],
    it: ["androgin*", "neutr*", "non binari*"],
    pt: ["andrógin*", "neutr*", "não binári*"],
    pl: ["androgyniczn*", "neutraln*", "niebinarn*"],
    nl: ["androgyn*", "genderneutraal", "non-binair"],
    sv: ["androgyn*", "könsneutral*", "ickebinär*"],
    hi: ["उभयलिंगी", "तटस्थ"],
  },
};

export const AGE_TERMS: Record<"young" | "middle_aged" | "old", Terms> = {
  young: {
    en: ["young", "younger", "youthful", "youth", "teen", "teens", "teenage", "teenager", "child", "kid", "boy", "girl", "student", "college"],
    de: ["jung*", "jugendlich*", "teenager", "kind", "mädchen", "student*"],
    fr: ["jeune*", "adolescent*", "enfant", "garçon", "fille", "étudiant*"],
    es: ["joven", "jóvenes", "juvenil", "adolescente", "niño", "niña", "chico", "chica", "estudiante"],
    it: ["giovan*", "adolescente", "bambin*", "ragazz*", "studente", "studentessa"],
    pt: ["jovem", "jovens", "juvenil", "adolescente", "criança", "menino", "menina", "rapaz", "moça", "estudante"],
    pl: ["młod*", "nastolat*", "dziecko", "chłopiec", "dziewczyn*", "student*"],
    nl: ["jong*", "tiener", "kind", "jongen", "meisje", "student*"],
    sv: ["ung", "unga", "ungdom*", "tonåring*", "barn", "pojke", "flicka", "student*"],
    hi: ["युवा", "जवान", "किशोर", "बच्चा", "बच्चे", "लड़का", "लड़के", "लड़की", "नौजवान"],
  },
  middle_aged: {
    en: ["middle-aged", "middle aged", "middleaged", "adult", "grown-up", "thirties", "forties", "fifties"],
    de: ["mittleren alters", "mittelalt*", "erwachsen*"],
    fr: ["d'âge moyen", "âge moyen", "adulte", "quadragénaire", "quinquagénaire"],
    es: ["mediana edad", "adulto", "adulta", "cuarentón", "cuarentona"],
    it: ["mezza età", "adulto", "adulta"],
    pt: ["meia-idade", "meia idade", "adulto", "adulta"],
    pl: ["w średnim wieku", "średnim wieku", "dorosł*"],
    nl: ["middelbare leeftijd", "volwassen*"],
    sv: ["medelålders", "vuxen", "vuxna"],
    hi: ["अधेड़", "मध्यम आयु", "वयस्क"],
  },
  old: {
    en: ["old", "older", "elderly", "aged", "aging", "ageing", "senior", "grandfather", "grandmother", "grandpa", "grandma", "ancient", "geriatric", "sixties", "seventies", "eighties", "veteran"],
    de: ["alt", "alte", "alter", "alten", "älter*", "betagt*", "greis*", "senior*", "großvater", "großmutter", "opa", "oma"],
    fr: ["vieil", "vieille", "vieux", "âgé", "âgée", "âgés", "âgées", "ancien*", "grand-père", "grand-mère", "papi", "mamie", "senior*"],
    es: ["viejo", "vieja", "anciano", "anciana", "mayor", "abuelo", "abuela", "sénior", "senior"],
    it: ["vecchi*", "anzian*", "nonno", "nonna", "senior"],
    pt: ["velho", "velha", "idoso", "idosa", "avô", "avó", "sênior", "senior"],
    pl: ["star*", "sędziw*", "dziadek", "babcia", "senior*"],
    nl: ["oud", "oude", "ouder*", "bejaard*", "opa", "oma", "senior"],
    sv: ["gammal", "gamla", "äldre", "åldrad*", "farfar", "morfar", "farmor", "mormor", "senior*"],
    hi: ["बूढ़ा", "बूढ़ी", "बूढ़े", "बुज़ुर्ग", "बुजुर्ग", "वृद्ध", "दादा", "दादी", "नाना", "नानी"],
  },
};

/** Scalar traits beyond the 33 descriptive tags. */
export const TRAIT_ENTRIES: LexiconEntry[] = [
  { id: "low", effect: { pitch: -0.7 }, terms: { en: ["low", "lower", "low-pitched", "low pitched", "bass", "baritone", "booming"], de: ["tief*", "bass*", "bariton*"], fr: ["grave", "graves", "basse", "baryton"], es: ["grave", "graves", "baja", "bajo", "barítono"], it: ["grave", "gravi", "bassa", "basso", "baritono"], pt: ["grave", "graves", "baixa", "baixo", "barítono"], pl: ["nisk*", "basow*", "barytonow*"], nl: ["laag", "lage", "bas", "bariton"], sv: ["låg", "låga", "mörk*", "bas", "baryton"], hi: ["भारी", "नीची", "गहरी"] } },
  { id: "high", effect: { pitch: 0.7 }, terms: { en: ["high", "higher", "high-pitched", "high pitched", "squeaky", "shrill", "piping", "falsetto"], de: ["hoch", "hohe*", "hoher", "höher*", "piepsig*", "schrill*"], fr: ["aigu", "aiguë", "aigus", "haut perchée", "perchée", "suraigu*"], es: ["aguda", "agudo", "aguda*", "chillona", "chillón"], it: ["acuta", "acuto", "stridul*", "alta"], pt: ["aguda", "agudo", "estridente", "fina"], pl: ["wysok*", "piskliw*", "cienk*"], nl: ["hoog", "hoge", "piepend*", "schel"], sv: ["hög", "höga", "ljus*", "pipig*", "gäll*"], hi: ["ऊँची", "ऊंची", "पतली", "तीखी"] } },
  { id: "slow", effect: { pace: -0.7 }, terms: { en: ["slow", "slower", "slowly", "unhurried", "leisurely", "drawling", "deliberate", "measured"], de: ["langsam*", "gemächlich*", "bedächtig*"], fr: ["lent", "lente", "lentement", "posé", "posée"], es: ["lento", "lenta", "lentamente", "pausado", "pausada", "despacio"], it: ["lento", "lenta", "lentamente", "pacato", "pacata"], pt: ["lento", "lenta", "lentamente", "devagar", "pausado", "pausada"], pl: ["powoln*", "wolno", "woln*", "spokojnym tempem"], nl: ["langzaam", "langzame", "traag", "trage"], sv: ["långsam*", "sakta"], hi: ["धीमी", "धीमा", "धीरे"] } },
  { id: "fast", effect: { pace: 0.7 }, terms: { en: ["fast", "faster", "quick", "quicker", "quickly", "rapid", "rapidly", "hurried", "brisk", "speedy", "fast-paced", "fast-talking"], de: ["schnell*", "zügig*", "rasch*", "hastig*"], fr: ["rapide", "rapides", "rapidement", "vite", "pressé", "pressée"], es: ["rápido", "rápida", "rápidamente", "veloz", "acelerado", "acelerada"], it: ["veloce", "veloci", "rapido", "rapida", "svelto", "svelta"], pt: ["rápido", "rápida", "rapidamente", "veloz", "acelerado", "acelerada"], pl: ["szybk*", "szybko", "prędk*"], nl: ["snel", "snelle", "vlug", "vlugge"], sv: ["snabb*", "fort", "rask*"], hi: ["तेज़", "तेज", "जल्दी", "फुर्तीली"] } },
  { id: "loud", effect: { loud: 0.6, energy: 0.2 }, terms: { en: ["loud", "louder", "booming", "powerful", "strong", "projecting"], de: ["laut*", "kräftig*", "stark*", "mächtig*"], fr: ["fort", "forte", "puissant*", "tonitruant*"], es: ["fuerte", "potente", "poderos*"], it: ["fort*", "potente", "possente"], pt: ["alta", "forte", "potente", "poderos*"], pl: ["głośn*", "mocn*", "potężn*"], nl: ["luid*", "krachtig*", "sterk*"], sv: ["hög*", "kraftfull*", "stark*"], hi: ["ज़ोरदार", "तेज़ आवाज़", "बुलंद"] } },
  { id: "quiet", effect: { loud: -0.6 }, terms: { en: ["quiet", "quieter", "quietly", "hushed", "muted", "faint"], de: ["leise*", "gedämpft*"], fr: ["calme et bas", "feutré*", "discret*", "discrète"], es: ["baja voz", "callad*", "susurrante", "discret*"], it: ["sommess*", "sussurrat*", "discret*"], pt: ["baix*", "silencios*", "discret*"], pl: ["cich*", "przytłumion*"], nl: ["zacht*", "stil*", "gedempt*"], sv: ["tyst*", "dämpad*", "lågmäld*"], hi: ["धीमी आवाज़", "शांत"] } },
  { id: "breathy", effect: { breath: 0.7 }, terms: { en: ["breathy", "airy"], de: ["hauchig*", "luftig*", "behaucht*"], fr: ["souffl*", "aérien*"], es: ["aireada", "aireado", "entrecortad*"], it: ["soffiat*", "aerea", "aereo"], pt: ["sussurrad*", "aerada", "soprosa"], pl: ["zdyszan*", "chuchając*"], nl: ["hijgerig*", "luchtig*"], sv: ["luftig*", "väsande"], hi: ["साँस भरी", "हवादार"] } },
  { id: "dark", effect: { timbre: -0.6 }, terms: { en: ["dark", "darker", "rich", "richer", "full", "resonant", "throaty", "chesty"], de: ["dunkel*", "voll*", "sonor*", "satt*"], fr: ["sombre*", "riche*", "pleine", "chaude", "résonnant*", "sonore"], es: ["oscur*", "rica", "plena", "resonante", "sonora"], it: ["scur*", "ricca", "piena", "risonante", "sonora"], pt: ["escur*", "rica", "cheia", "ressonante", "sonora"], pl: ["ciemn*", "peln*", "pełn*", "dźwięczn*"], nl: ["donker*", "vol", "volle", "rijk*", "sonoor"], sv: ["mörk*", "fyllig*", "rik", "sonor*"], hi: ["गूंजती", "भरी हुई"] } },
  { id: "thin", effect: { timbre: 0.6 }, terms: { en: ["thin", "tinny", "reedy"], de: ["dünn*"], fr: ["mince"], es: ["delgada"], it: ["sottile"], pt: ["fina", "fino"], pl: ["cienk*"], nl: ["dun", "dunne"], sv: ["tunn*"], hi: ["पतली"] } },
  { id: "nasal", effect: { nasal: 0.8, timbre: 0.2 }, terms: { en: ["nasal", "nasally", "twangy"], de: ["nasal*", "näselnd*"], fr: ["nasal*", "nasillard*"], es: ["nasal", "gangos*"], it: ["nasale", "nasal*"], pt: ["nasal", "anasalad*"], pl: ["nosow*"], nl: ["nasaal", "nasale"], sv: ["nasal*"], hi: ["नाक से"] } },
  { id: "rough", effect: { rough: 0.6 }, terms: { en: ["rough", "hoarse", "gritty", "creaky", "croaky", "scratchy", "smoky", "rasping"], de: ["rau*", "heiser*", "kratzig*", "brüchig*", "rauchig*"], fr: ["rauque*", "éraillé*", "enroué*", "rugueu*"], es: ["ronca", "ronco", "áspera", "áspero", "rasposa", "rasposo"], it: ["rauca", "rauco", "ruvid*", "graffiant*"], pt: ["rouca", "rouco", "áspera", "áspero", "arranhad*"], pl: ["chropaw*", "zachrypnięt*", "szorstk*"], nl: ["schor*", "hees", "hese", "ruw*", "krassend*"], sv: ["hes", "hesa", "sträv*", "skrovlig*"], hi: ["खुरदरी", "कर्कश", "भर्राई"] } },
  { id: "monotone", effect: { energy: -0.8 }, terms: { en: ["monotone", "monotonous", "flat", "robotic", "deadpan"], de: ["monoton*", "eintönig*", "flach*"], fr: ["monotone*", "plat", "plate"], es: ["monóton*", "plana", "plano"], it: ["monoton*", "piatta", "piatto"], pt: ["monóton*", "plana", "plano"], pl: ["monotonn*", "płask*"], nl: ["monotoon", "monotone", "vlak*", "eentonig*"], sv: ["monoton*", "entonig*", "platt*"], hi: ["नीरस", "एकसुरी"] } },
];

/**
 * The 33 descriptive tags (contract/voices.ts DESCRIPTIVES, "from anxious to wise"): each is a
 * label a designed voice can carry and an effect on the voice.
 */
export const DESCRIPTIVE_ENTRIES: LexiconEntry[] = [
  { id: "anxious", effect: { pace: 0.4, energy: 0.3, pitch: 0.3, breath: 0.2 }, terms: { en: ["anxious", "nervous", "worried", "jittery"], de: ["ängstlich*", "nervös*", "besorgt*"], fr: ["anxieu*", "nerveu*", "inquiet*", "inquiète"], es: ["ansios*", "nervios*", "preocupad*"], it: ["ansios*", "nervos*", "preoccupat*"], pt: ["ansios*", "nervos*", "preocupad*"], pl: ["niespokojn*", "nerwow*", "zaniepokojon*"], nl: ["angstig*", "nerveu*", "bezorgd*"], sv: ["ängslig*", "nervös*", "orolig*"], hi: ["चिंतित", "घबराई", "घबराया", "बेचैन"] } },
  { id: "authoritative", effect: { pitch: -0.3, pace: -0.2, energy: 0.1, timbre: -0.2, loud: 0.2 }, terms: { en: ["authoritative", "commanding", "stern", "authority"], de: ["autoritär*", "gebieterisch*", "streng*", "bestimmt*"], fr: ["autoritaire*", "impérieu*", "sévère*"], es: ["autoritari*", "imponente", "severa", "severo"], it: ["autorevol*", "autoritari*", "severa", "severo"], pt: ["autoritári*", "imponente", "severa", "severo"], pl: ["autorytatywn*", "stanowcz*", "surow*"], nl: ["gezaghebbend*", "autoritair*", "streng*"], sv: ["auktoritativ*", "myndig*", "sträng*"], hi: ["अधिकारपूर्ण", "रौबदार", "कड़क"] } },
  { id: "bright", effect: { timbre: 0.6, pitch: 0.3 }, terms: { en: ["bright", "brighter", "brilliant", "sparkling", "radiant"], de: ["hell*", "strahlend*", "brillant*"], fr: ["brillant*", "lumineu*", "éclatant*"], es: ["brillante*", "luminos*", "radiante"], it: ["brillant*", "luminos*", "radios*"], pt: ["brilhante*", "luminos*", "radiante"], pl: ["jasn*", "promienn*", "błyskotliw*"], nl: ["helder*", "stralend*", "briljant*"], sv: ["klar*", "strålande", "briljant*"], hi: ["चमकदार", "उज्ज्वल", "खनकती"] } },
  { id: "calm", effect: { pace: -0.4, energy: -0.5 }, terms: { en: ["calm", "peaceful", "serene", "tranquil", "steady", "composed"], de: ["ruhig*", "gelassen*", "friedlich*", "besonnen*"], fr: ["calme*", "serein*", "paisible*", "tranquille*", "apaisé*"], es: ["tranquil*", "calmad*", "seren*", "sosegad*"], it: ["calm*", "seren*", "tranquill*", "pacat*"], pt: ["calm*", "seren*", "tranquil*"], pl: ["spokojn*", "opanowan*", "łagodn*"], nl: ["kalm*", "rustig*", "sereen*", "bedaard*"], sv: ["lugn*", "stilla", "sansad*", "fridfull*"], hi: ["शांत", "स्थिर", "सौम्य"] } },
  { id: "casual", effect: { pace: 0.15, energy: 0.1 }, terms: { en: ["casual", "laid-back", "informal", "chill", "conversational"], de: ["locker*", "lässig*", "ungezwungen*", "entspannt*"], fr: ["décontracté*", "détendu*", "familier*", "familière"], es: ["casual", "informal", "desenfadad*"], it: ["informal*", "disinvolt*", "rilassat*"], pt: ["casual", "informal", "descontraíd*"], pl: ["swobodn*", "luźn*", "nieformaln*"], nl: ["losjes", "ontspannen*", "informeel", "informele", "nonchalant*"], sv: ["avslappnad*", "ledig*", "informell*"], hi: ["सहज", "बेतकल्लुफ़", "अनौपचारिक"] } },
  { id: "cheerful", effect: { pitch: 0.4, energy: 0.6, pace: 0.3 }, terms: { en: ["cheerful", "happy", "joyful", "jolly", "sunny", "bubbly", "chirpy", "merry"], de: ["fröhlich*", "heiter*", "vergnügt*", "glücklich*", "munter*"], fr: ["joyeu*", "gai", "gaie", "enjoué*", "heureu*", "pétillant*"], es: ["alegre*", "feliz", "jovial*", "risueñ*"], it: ["allegr*", "gioios*", "felice", "gioviale"], pt: ["alegre*", "feliz", "jovial", "animad*"], pl: ["wesoł*", "radosn*", "pogodn*", "szczęśliw*"], nl: ["vrolijk*", "opgewekt*", "blij*", "monter*"], sv: ["glad*", "munter*", "lycklig*", "sprudlande"], hi: ["खुशमिज़ाज", "हँसमुख", "प्रसन्न", "खुश"] } },
  { id: "clear", effect: { timbre: 0.3, breath: -0.3 }, terms: { en: ["clear", "articulate", "precise", "distinct", "clean"], de: ["klar*", "deutlich*", "präzis*", "artikuliert*"], fr: ["clair*", "net", "nette", "précis*", "articulé*"], es: ["clara", "claro", "nítid*", "precis*", "articulad*"], it: ["chiar*", "nitid*", "precis*", "scandit*"], pt: ["clara", "claro", "nítid*", "precis*", "articulad*"], pl: ["wyraźn*", "czyst*", "precyzyjn*"], nl: ["duidelijk*", "helder", "precies*", "gearticuleerd*"], sv: ["tydlig*", "klar", "klara", "distinkt*"], hi: ["स्पष्ट", "साफ़"] } },
  { id: "confident", effect: { energy: 0.2, pace: -0.1, loud: 0.2, pitch: -0.1 }, terms: { en: ["confident", "assured", "self-assured", "assertive", "bold"], de: ["selbstbewusst*", "selbstsicher*", "souverän*", "sicher*"], fr: ["confiant*", "assuré*", "sûr de soi", "audacieu*"], es: ["segur*", "confiad*", "decidid*"], it: ["sicur*", "fiducios*", "decis*"], pt: ["confiante*", "segur*", "decidid*"], pl: ["pewn*", "zdecydowan*", "śmiał*"], nl: ["zelfverzekerd*", "zeker*", "vastberaden*"], sv: ["självsäker*", "säker*", "trygg*"], hi: ["आत्मविश्वासी", "आत्मविश्वास", "निडर"] } },
  { id: "crisp", effect: { timbre: 0.5, breath: -0.2 }, terms: { en: ["crisp", "sharp", "snappy"], de: ["knackig*", "scharf*", "prägnant*"], fr: ["vif", "vive", "tranchant*", "incisi*"], es: ["nítida", "nítido", "cortante", "incisiv*"], it: ["croccant*", "taglient*", "incisiv*"], pt: ["crocante", "incisiv*", "cortante"], pl: ["ostr*", "rześk*", "dobitn*"], nl: ["scherp*", "fris*", "pittig*"], sv: ["skarp*", "krispig*", "spänstig*"], hi: ["कड़क", "तीक्ष्ण"] } },
  { id: "deep", effect: { pitch: -0.8, timbre: -0.5 }, terms: { en: ["deep", "deeper", "low-toned"], de: ["tief*", "sonor*"], fr: ["profond*", "grave"], es: ["profund*", "grave"], it: ["profond*", "grave"], pt: ["profund*", "grave"], pl: ["głębok*", "głęboki*"], nl: ["diep*", "donkere"], sv: ["djup*"], hi: ["गहरी", "गहरा", "भारी"] } },
  { id: "dramatic", effect: { energy: 0.8, pace: -0.2 }, terms: { en: ["dramatic", "theatrical", "epic", "cinematic"], de: ["dramatisch*", "theatralisch*", "episch*"], fr: ["dramatique*", "théâtral*", "épique*"], es: ["dramátic*", "teatral*", "épic*"], it: ["drammatic*", "teatral*", "epic*"], pt: ["dramátic*", "teatral*", "épic*"], pl: ["dramatyczn*", "teatraln*", "epick*"], nl: ["dramatisch*", "theatraal*", "episch*"], sv: ["dramatisk*", "teatralisk*", "episk*"], hi: ["नाटकीय"] } },
  { id: "elegant", effect: { pace: -0.2, timbre: 0.1, energy: -0.1 }, terms: { en: ["elegant", "refined", "sophisticated", "graceful", "posh"], de: ["elegant*", "vornehm*", "kultiviert*", "anmutig*"], fr: ["élégant*", "raffiné*", "distingué*", "gracieu*"], es: ["elegante*", "refinad*", "sofisticad*"], it: ["elegant*", "raffinat*", "sofisticat*"], pt: ["elegante*", "refinad*", "sofisticad*"], pl: ["eleganck*", "wytworn*", "wyrafinowan*"], nl: ["elegant*", "verfijnd*", "gedistingeerd*"], sv: ["elegant*", "förfinad*", "sofistikerad*"], hi: ["सुरुचिपूर्ण", "शालीन", "नफ़ीस"] } },
  { id: "energetic", effect: { energy: 0.8, pace: 0.5, loud: 0.3 }, terms: { en: ["energetic", "lively", "dynamic", "vibrant", "enthusiastic", "excited", "peppy", "animated", "hyper"], de: ["energisch*", "energiegeladen*", "lebhaft*", "dynamisch*", "begeistert*", "aufgeregt*"], fr: ["énergique*", "dynamique*", "vivant*", "enthousiaste*", "excité*", "animé*"], es: ["enérgic*", "dinámic*", "animad*", "entusiasta*", "vibrante*"], it: ["energic*", "dinamic*", "vivac*", "entusiast*", "animat*"], pt: ["enérgic*", "dinâmic*", "animad*", "entusiasmad*", "vibrante*"], pl: ["energiczn*", "dynamiczn*", "żywioł*", "entuzjastyczn*"], nl: ["energiek*", "levendig*", "dynamisch*", "enthousiast*"], sv: ["energisk*", "livlig*", "dynamisk*", "entusiastisk*"], hi: ["ऊर्जावान", "जोशीली", "जोशीला", "उत्साही"] } },
  { id: "expressive", effect: { energy: 0.7 }, terms: { en: ["expressive", "emotional", "emotive", "passionate"], de: ["ausdrucksstark*", "ausdrucksvoll*", "emotional*", "leidenschaftlich*"], fr: ["expressi*", "émoti*", "passionné*"], es: ["expresiv*", "emotiv*", "apasionad*"], it: ["espressiv*", "emotiv*", "appassionat*"], pt: ["expressiv*", "emotiv*", "apaixonad*"], pl: ["ekspresyjn*", "emocjonaln*", "namiętn*"], nl: ["expressief", "expressieve", "emotioneel", "emotionele", "gepassioneerd*"], sv: ["uttrycksfull*", "känslosam*", "passionerad*"], hi: ["भावपूर्ण", "भावुक", "अभिव्यंजक"] } },
  { id: "formal", effect: { pace: -0.1, energy: -0.2 }, terms: { en: ["formal", "professional", "businesslike", "proper", "newsreader", "news"], de: ["förmlich*", "formell*", "professionell*", "sachlich*", "nachrichten*"], fr: ["formel*", "professionnel*", "soutenu*"], es: ["formal*", "profesional*", "serio"], it: ["formal*", "professional*"], pt: ["formal*", "profissional*"], pl: ["formaln*", "profesjonaln*", "oficjaln*"], nl: ["formeel", "formele", "professioneel", "professionele", "zakelijk*"], sv: ["formell*", "professionell*", "saklig*"], hi: ["औपचारिक", "पेशेवर"] } },
  { id: "friendly", effect: { pitch: 0.2, energy: 0.3 }, terms: { en: ["friendly", "kind", "welcoming", "approachable", "pleasant", "amiable"], de: ["freundlich*", "nett*", "herzlich*", "sympathisch*"], fr: ["amical*", "aimable*", "sympathique*", "chaleureu*", "accueillant*"], es: ["amable*", "amistos*", "simpátic*", "cercan*"], it: ["amichevol*", "gentil*", "simpatic*", "cordial*"], pt: ["amigável*", "simpátic*", "gentil*", "acolhedor*"], pl: ["przyjazn*", "przyjaźn*", "sympatyczn*", "miły", "miła"], nl: ["vriendelijk*", "aardig*", "hartelijk*", "sympathiek*"], sv: ["vänlig*", "trevlig*", "hjärtlig*"], hi: ["मिलनसार", "दोस्ताना", "मैत्रीपूर्ण"] } },
  { id: "gentle", effect: { energy: -0.4, loud: -0.4, breath: 0.2, pace: -0.2 }, terms: { en: ["gentle", "tender", "mild", "delicate"], de: ["sanft*", "zart*", "behutsam*", "mild*"], fr: ["doux", "douce", "tendre*", "délicat*"], es: ["suave*", "tierna", "tierno", "delicad*", "dulce"], it: ["dolce", "tenera", "tenero", "delicat*", "gentile"], pt: ["suave*", "terna", "terno", "delicad*", "meiga"], pl: ["delikatn*", "czuł*", "łagodn*"], nl: ["zacht*", "teder*", "mild*", "lief*"], sv: ["mjuk*", "öm", "varsam*", "mild*"], hi: ["कोमल", "मृदु", "नरम"] } },
  { id: "gravelly", effect: { rough: 0.8, pitch: -0.3, timbre: -0.2 }, terms: { en: ["gravelly", "gravel", "growly", "grizzled"], de: ["kiesig*", "knorrig*", "grollend*"], fr: ["graveleu*", "rocailleu*"], es: ["cascada", "cascado", "rasgad*"], it: ["ghiaios*", "rocciosa", "cavernos*"], pt: ["cascalhad*", "cavernos*"], pl: ["żwirow*", "chrapliw*"], nl: ["grinderig*", "rauwe"], sv: ["grusig*", "knarrig*"], hi: ["खरखराती", "खरखरी"] } },
  { id: "husky", effect: { breath: 0.5, pitch: -0.4, rough: 0.3 }, terms: { en: ["husky", "sultry"], de: ["rauchig*", "belegt*", "verrucht*"], fr: ["voilé*", "sensuel*"], es: ["ronquita", "sensual*", "velad*"], it: ["velat*", "sensual*", "roca"], pt: ["rouquinha", "sensual*", "velad*"], pl: ["zachrypł*", "zmysłow*"], nl: ["omfloerst*", "zwoel*"], sv: ["husky", "sensuell*", "beslöjad*"], hi: ["भर्राई हुई", "धीमी भारी"] } },
  { id: "intense", effect: { energy: 0.6, loud: 0.4, pace: 0.1 }, terms: { en: ["intense", "fierce", "urgent", "gripping"], de: ["intensiv*", "eindringlich*", "heftig*"], fr: ["intense*", "féroce*", "urgent*"], es: ["intens*", "feroz", "urgente*"], it: ["intens*", "feroce", "urgente"], pt: ["intens*", "feroz", "urgente*"], pl: ["intensywn*", "przejmując*", "gwałtown*"], nl: ["intens*", "fel", "felle", "dringend*"], sv: ["intensiv*", "våldsam*", "brådskande"], hi: ["तीव्र", "प्रखर", "उग्र"] } },
  { id: "mature", effect: { pitch: -0.2, pace: -0.1, ageBias: "old" }, terms: { en: ["mature", "seasoned", "experienced"], de: ["reif*", "erfahren*", "gestanden*"], fr: ["mûr", "mûre", "expérimenté*"], es: ["madur*", "experimentad*"], it: ["matur*", "espert*"], pt: ["madur*", "experiente*"], pl: ["dojrzał*", "doświadczon*"], nl: ["rijp*", "ervaren*", "volwassen"], sv: ["mogen", "mogna", "erfaren*"], hi: ["परिपक्व", "अनुभवी"] } },
  { id: "playful", effect: { energy: 0.6, pitch: 0.3, pace: 0.2 }, terms: { en: ["playful", "mischievous", "cheeky", "whimsical", "silly", "goofy"], de: ["verspielt*", "schelmisch*", "frech*", "albern*"], fr: ["espiègle*", "joueu*", "malicieu*", "taquin*"], es: ["juguetón", "juguetona", "travies*", "pícar*"], it: ["giocos*", "birichin*", "scherzos*"], pt: ["brincalhã*", "travess*", "divertid*"], pl: ["figlarn*", "zabawn*", "psotn*"], nl: ["speels*", "ondeugend*", "guitig*"], sv: ["lekfull*", "busig*", "skälmsk*"], hi: ["चंचल", "शरारती", "नटखट"] } },
  { id: "raspy", effect: { rough: 0.7, breath: 0.3 }, terms: { en: ["raspy", "rasp"], de: ["kratzig*", "krächzend*"], fr: ["râpeu*", "éraillé*"], es: ["rasposa", "rasposo", "carraspos*"], it: ["raschiant*", "gracchiant*"], pt: ["arranhad*", "raspad*"], pl: ["chrypliw*", "zgrzytliw*"], nl: ["raspend*", "krakend*"], sv: ["raspig*", "skrapig*"], hi: ["फटी", "खरखराहट"] } },
  { id: "relaxed", effect: { pace: -0.3, energy: -0.3 }, terms: { en: ["relaxed", "easygoing", "easy-going", "mellow", "unwinding"], de: ["entspannt*", "gelöst*", "gemütlich*"], fr: ["détendu*", "relax*", "nonchalant*"], es: ["relajad*", "sosegad*"], it: ["rilassat*", "distes*"], pt: ["relaxad*", "tranquil*"], pl: ["zrelaksowan*", "rozluźnion*"], nl: ["relaxed", "ontspannen", "gemoedelijk*"], sv: ["avspänd*", "avslappnad*", "lugnt"], hi: ["आरामदेह", "बेफ़िक्र", "तनावमुक्त"] } },
  { id: "sassy", effect: { energy: 0.5, pitch: 0.2, pace: 0.2 }, terms: { en: ["sassy", "spunky", "snarky", "feisty"], de: ["kess*", "schnippisch*", "vorlaut*"], fr: ["insolent*", "effronté*", "piquant*"], es: ["descarad*", "atrevid*", "respondon*"], it: ["sfacciat*", "impertinent*", "sbarazzin*"], pt: ["atrevid*", "petulante*", "abusad*"], pl: ["zadziorn*", "bezczeln*", "pyskat*"], nl: ["brutaal", "brutale", "pittig*", "eigenwijs*"], sv: ["näsvis*", "kaxig*", "uppkäftig*"], hi: ["तीखी", "चुलबुली", "मुंहफट"] } },
  { id: "serious", effect: { energy: -0.3, pitch: -0.2, pace: -0.1 }, terms: { en: ["serious", "grave", "solemn", "somber", "sombre", "stoic"], de: ["ernst*", "feierlich*", "düster*"], fr: ["sérieu*", "solennel*", "austère*"], es: ["seri*", "solemne*", "sombrí*"], it: ["seri*", "solenn*", "cupo", "cupa"], pt: ["séri*", "solene*", "sombri*"], pl: ["poważn*", "uroczyst*", "ponur*"], nl: ["serieu*", "ernstig*", "plechtig*"], sv: ["allvarlig*", "högtidlig*", "dyster*"], hi: ["गंभीर", "संजीदा"] } },
  { id: "smooth", effect: { rough: -0.4, energy: -0.1, timbre: -0.1 }, terms: { en: ["smooth", "silky", "velvety", "buttery", "polished", "mellifluous"], de: ["weich*", "samtig*", "seidig*", "geschmeidig*"], fr: ["velouté*", "soyeu*", "lisse*", "suave*"], es: ["aterciopelad*", "sedos*", "melos*"], it: ["vellutat*", "setos*", "morbid*"], pt: ["aveludad*", "sedos*", "macia", "macio"], pl: ["gładk*", "aksamitn*", "jedwabist*"], nl: ["fluweelzacht*", "zijdezacht*", "soepel*", "glad*"], sv: ["len", "lena", "sammetslen*", "silkeslen*"], hi: ["मखमली", "मुलायम", "सुरीली"] } },
  { id: "soft", effect: { loud: -0.6, breath: 0.3, energy: -0.3, soft: 0.8 }, terms: { en: ["soft", "softly", "soft-spoken", "softspoken"], de: ["weich*", "leise"], fr: ["douce", "doux", "feutrée"], es: ["suave", "bajita"], it: ["soffice", "morbida", "morbido", "leggera"], pt: ["suave", "macia"], pl: ["miękk*", "cich*"], nl: ["zacht", "zachte", "zachtjes"], sv: ["mjuk", "mjuka", "stilla"], hi: ["नरम", "मुलायम", "धीमी"] } },
  { id: "soothing", effect: { pace: -0.4, energy: -0.4, loud: -0.3, breath: 0.2 }, terms: { en: ["soothing", "comforting", "calming", "relaxing", "reassuring", "hypnotic", "meditative", "asmr"], de: ["beruhigend*", "tröstend*", "wohltuend*", "meditativ*"], fr: ["apaisant*", "réconfortant*", "relaxant*", "rassurant*"], es: ["relajante*", "tranquilizador*", "reconfortante*"], it: ["rilassant*", "rassicurant*", "confortant*", "calmant*"], pt: ["relaxante*", "tranquilizador*", "reconfortante*", "calmante*"], pl: ["kojąc*", "uspokajając*", "relaksując*"], nl: ["kalmerend*", "geruststellend*", "rustgevend*", "troostend*"], sv: ["lugnande", "tröstande", "rogivande", "avkopplande"], hi: ["सुखदायक", "आरामदायक", "शांतिदायक"] } },
  { id: "upbeat", effect: { energy: 0.6, pace: 0.4, pitch: 0.2 }, terms: { en: ["upbeat", "positive", "optimistic", "chipper", "bouncy"], de: ["optimistisch*", "positiv*", "beschwingt*", "schwungvoll*"], fr: ["optimiste*", "positi*", "entraînant*", "dynamique"], es: ["optimist*", "positiv*", "animada", "animado"], it: ["ottimist*", "positiv*", "brioso", "briosa"], pt: ["otimist*", "positiv*", "animada", "animado", "pra cima"], pl: ["optymistyczn*", "pozytywn*", "żwaw*"], nl: ["opgewekt", "optimistisch*", "positief", "positieve"], sv: ["optimistisk*", "positiv*", "pigg*"], hi: ["आशावादी", "उमंग भरी", "सकारात्मक"] } },
  { id: "warm", effect: { timbre: -0.4, pitch: -0.1 }, terms: { en: ["warm", "warmly", "cozy", "cosy", "hearty"], de: ["warm*", "wärme*", "herzlich", "gemütlich"], fr: ["chaleureu*", "chaud", "chaude"], es: ["cálid*", "calurosa", "caluroso", "acogedor*"], it: ["cald*", "calorosa", "caloroso", "accogliente"], pt: ["calorosa", "caloroso", "quente*", "acolhedora"], pl: ["ciepł*", "serdeczn*"], nl: ["warm", "warme", "hartelijke", "gezellig*"], sv: ["varm*", "hjärtlig", "mysig*"], hi: ["गर्मजोशी", "आत्मीय", "गर्म"] } },
  { id: "whispery", effect: { breath: 0.9, loud: -0.5 }, terms: { en: ["whispery", "whispering", "whispered", "whisper", "whispers", "breathless"], de: ["flüster*", "geflüstert*", "hauchend*"], fr: ["chuchot*", "murmur*"], es: ["susurr*", "murmull*"], it: ["sussurr*", "bisbigli*", "mormor*"], pt: ["sussurr*", "murmur*", "cochich*"], pl: ["szept*", "szepcząc*"], nl: ["fluister*", "gefluister*"], sv: ["viskande", "viskning*", "viskad*", "viskar"], hi: ["फुसफुसाती", "फुसफुसाहट", "फुसफुसाता"] } },
  { id: "wise", effect: { pace: -0.3, pitch: -0.2, ageBias: "old" }, terms: { en: ["wise", "sage", "learned", "philosophical", "thoughtful"], de: ["weise*", "gelehrt*", "nachdenklich*"], fr: ["sage*", "savant*", "pensi*", "réfléchi*"], es: ["sabi*", "sensat*", "reflexiv*"], it: ["saggi*", "sapient*", "riflessiv*"], pt: ["sábi*", "sensat*", "reflexiv*"], pl: ["mądr*", "rozważn*", "uczon*"], nl: ["wijs", "wijze", "bedachtzaam*", "geleerd*"], sv: ["vis", "visa", "klok*", "eftertänksam*"], hi: ["बुद्धिमान", "ज्ञानी", "विवेकी"] } },
];

if (DESCRIPTIVE_ENTRIES.length !== DESCRIPTIVES.length || DESCRIPTIVE_ENTRIES.some((e, i) => e.id !== DESCRIPTIVES[i])) {
  throw new Error("voice-design lexicon: the descriptive entries must follow contract/voices.ts DESCRIPTIVES");
}

/** Words that make the next two words not count ("not too fast", "nicht zu schnell"). */
export const NEGATORS: Terms = {
  en: ["not", "no", "never", "without", "isn't", "nor", "non"],
  de: ["nicht", "kein*", "ohne", "nie"],
  fr: ["pas", "ni", "sans", "jamais", "non"],
  es: ["no", "ni", "sin", "nunca"],
  it: ["non", "né", "senza", "mai"],
  pt: ["não", "nem", "sem", "nunca"],
  pl: ["nie", "bez", "ani"],
  nl: ["niet", "geen", "zonder", "nooit"],
  sv: ["inte", "ej", "utan", "aldrig", "ingen"],
  hi: ["नहीं", "न", "बिना"],
};

/** Words that scale the next trait (×1.5 or ×0.5). */
export const INTENSIFIERS: Terms = {
  en: ["very", "much", "far", "extremely", "really", "super", "incredibly", "deeply", "highly", "so", "ultra", "exceptionally", "way"],
  de: ["sehr", "extrem", "äußerst", "besonders", "wirklich", "super", "richtig"],
  fr: ["très", "extrêmement", "vraiment", "super", "particulièrement", "hyper"],
  es: ["muy", "extremadamente", "realmente", "súper", "sumamente"],
  it: ["molto", "estremamente", "davvero", "super", "particolarmente"],
  pt: ["muito", "extremamente", "realmente", "super", "bem"],
  pl: ["bardzo", "niezwykle", "wyjątkowo", "naprawdę", "super"],
  nl: ["heel", "erg", "zeer", "extreem", "echt", "super"],
  sv: ["mycket", "extremt", "väldigt", "riktigt", "jätte"],
  hi: ["बहुत", "अत्यंत", "बेहद", "काफ़ी"],
};
export const SOFTENERS: Terms = {
  en: ["slightly", "somewhat", "a bit", "a little", "mildly", "fairly", "rather", "kind of", "sort of", "moderately"],
  de: ["etwas", "leicht", "ein bisschen", "ein wenig", "eher", "ziemlich"],
  fr: ["un peu", "légèrement", "plutôt", "assez"],
  es: ["un poco", "ligeramente", "algo", "bastante"],
  it: ["un po'", "un po", "leggermente", "piuttosto", "abbastanza"],
  pt: ["um pouco", "ligeiramente", "meio", "bastante"],
  pl: ["trochę", "lekko", "nieco", "dość"],
  nl: ["een beetje", "enigszins", "wat", "vrij", "nogal"],
  sv: ["lite", "något", "ganska", "aningen"],
  hi: ["थोड़ा", "थोड़ी", "हल्का", "हल्की"],
};

/** Function words that tell which language a description is written in. */
export const STOPWORDS: Record<PromptLanguage, string[]> = {
  en: ["the", "a", "an", "with", "and", "voice", "who", "of", "in", "is", "speaks", "speaking", "that", "for", "like", "sounds"],
  de: ["der", "die", "das", "eine", "ein", "einer", "einem", "mit", "und", "stimme", "spricht", "sprechende", "von", "ist", "für"],
  fr: ["le", "la", "les", "une", "un", "avec", "et", "voix", "qui", "parle", "d'un", "d'une", "de", "pour", "est"],
  es: ["el", "la", "los", "una", "un", "con", "y", "voz", "que", "habla", "de", "para", "es"],
  it: ["il", "la", "lo", "una", "un", "con", "e", "voce", "che", "parla", "di", "per", "è"],
  pt: ["o", "a", "os", "uma", "um", "com", "e", "voz", "que", "fala", "de", "para", "é"],
  pl: ["głos", "z", "i", "o", "który", "która", "mówi", "mówiący", "mówiąca", "dla", "jest", "w"],
  nl: ["de", "het", "een", "met", "en", "stem", "die", "spreekt", "van", "voor", "is"],
  sv: ["en", "ett", "med", "och", "röst", "rösten", "som", "talar", "av", "för", "är"],
  hi: ["एक", "की", "का", "के", "और", "आवाज़", "आवाज", "वाली", "वाला", "में", "है"],
};

/** Languages and accents a description can name. `language` is ours (engine table); accents are the engine's. */
export interface PlaceEntry {
  language: string;
  accent?: string;
  terms: Terms;
}

export const LANGUAGE_NAMES: PlaceEntry[] = [
  { language: "en", terms: { en: ["english", "anglophone"], de: ["englisch*"], fr: ["anglais*", "anglophone"], es: ["inglés", "inglesa", "en inglés"], it: ["inglese", "in inglese"], pt: ["inglês", "inglesa"], pl: ["angielsk*", "po angielsku"], nl: ["engels*"], sv: ["engelsk*", "på engelska"], hi: ["अंग्रेज़ी", "अंग्रेजी", "इंग्लिश"] } },
  { language: "en", accent: "american", terms: { en: ["american", "us", "usa", "new yorker", "texan", "californian", "midwestern", "southern"], de: ["amerikanisch*", "amerikaner*"], fr: ["américain*"], es: ["estadounidense*", "americano", "americana"], it: ["american*", "statunitense"], pt: ["american*", "estadunidense"], pl: ["amerykańsk*", "amerykan*"], nl: ["amerikaans*", "amerikaan*"], sv: ["amerikansk*", "amerikan*"], hi: ["अमेरिकी", "अमरीकी"] } },
  { language: "en", accent: "british", terms: { en: ["british", "english accent", "londoner", "cockney", "uk", "irish", "australian", "aussie", "new zealand", "kiwi", "south african"], de: ["britisch*", "brite", "britin", "englischer akzent"], fr: ["britannique*", "anglais", "anglaise", "accent anglais"], es: ["británic*", "inglés", "inglesa"], it: ["britannic*", "inglese"], pt: ["britânic*", "inglês", "inglesa"], pl: ["brytyjsk*", "brytyj*"], nl: ["brits*", "engelse"], sv: ["brittisk*", "britt"], hi: ["ब्रिटिश"] } },
  { language: "en", accent: "received_pronunciation", terms: { en: ["received pronunciation", "rp", "posh british", "queen's english", "bbc english"] } },
  { language: "en", accent: "scottish", terms: { en: ["scottish", "scots", "scot", "scotsman", "scotswoman", "highland"], de: ["schottisch*", "schotte"], fr: ["écossais*"], es: ["escocés", "escocesa"], it: ["scozzes*"], pt: ["escocês", "escocesa"], pl: ["szkock*"], nl: ["schots*"], sv: ["skotsk*"], hi: ["स्कॉटिश"] } },
  { language: "en", accent: "caribbean", terms: { en: ["caribbean", "jamaican", "trinidadian", "bajan", "west indian"], de: ["karibisch*", "jamaikanisch*"], fr: ["caribéen*", "jamaïcain*", "antillais*"], es: ["caribeñ*", "jamaican*"], it: ["caraibic*", "giamaican*"], pt: ["caribenh*", "jamaican*"], pl: ["karaibsk*", "jamajsk*"], nl: ["caribisch*", "jamaicaans*"], sv: ["karibisk*", "jamaicansk*"], hi: ["कैरिबियन", "जमैकन"] } },
  { language: "en", accent: "new_york", terms: { en: ["new york", "brooklyn", "bronx"] } },
  { language: "de", terms: { en: ["german", "germanic", "austrian", "bavarian"], de: ["deutsch*", "österreichisch*", "bayerisch*", "auf deutsch"], fr: ["allemand*", "autrichien*"], es: ["alemán", "alemana", "austriac*"], it: ["tedesc*", "austriac*"], pt: ["alemão", "alemã", "austríac*"], pl: ["niemieck*", "austriack*", "po niemiecku"], nl: ["duits*", "oostenrijks*"], sv: ["tysk*", "österrikisk*"], hi: ["जर्मन"] } },
  { language: "fr", accent: "parisian", terms: { en: ["french", "parisian", "francophone"], de: ["französisch*", "pariser*"], fr: ["français*", "française", "parisien*", "francophone", "en français"], es: ["francés", "francesa", "parisin*"], it: ["frances*", "parigin*"], pt: ["francês", "francesa", "parisiens*"], pl: ["francusk*", "paryżan*", "po francusku"], nl: ["frans*", "parijs*"], sv: ["fransk*", "parisisk*"], hi: ["फ़्रेंच", "फ्रेंच", "फ़्रांसीसी"] } },
  { language: "fr", accent: "belgian", terms: { en: ["belgian", "walloon"], de: ["belgisch*"], fr: ["belge*", "wallon*"], es: ["belga*"], it: ["belg*"], pt: ["belga*"], pl: ["belgijsk*"], nl: ["belgisch*", "waals*"], sv: ["belgisk*"] } },
  { language: "fr", accent: "swiss", terms: { en: ["swiss"], de: ["schweizer*", "schweizerisch*"], fr: ["suisse*"], es: ["suiz*"], it: ["svizzer*"], pt: ["suíç*"], pl: ["szwajcarsk*"], nl: ["zwitsers*"], sv: ["schweizisk*"] } },
  { language: "es", accent: "castilian", terms: { en: ["spanish", "castilian", "spaniard", "madrid"], de: ["spanisch*", "kastilisch*"], fr: ["espagnol*", "castillan*"], es: ["español", "española", "castellan*", "en español"], it: ["spagnol*", "castiglian*"], pt: ["espanhol*", "castelhan*"], pl: ["hiszpańsk*", "po hiszpańsku"], nl: ["spaans*", "castiliaans*"], sv: ["spansk*", "kastiliansk*"], hi: ["स्पेनिश", "स्पेनी"] } },
  { language: "es", accent: "latin_american", terms: { en: ["latin american", "latino", "latina", "colombian", "argentinian", "argentine", "chilean", "peruvian"], de: ["lateinamerikanisch*", "kolumbianisch*", "argentinisch*"], fr: ["latino-américain*", "colombien*", "argentin*"], es: ["latinoamerican*", "latin*", "colombian*", "argentin*", "chilen*"], it: ["latinoamerican*", "colombian*", "argentin*"], pt: ["latino-american*", "colombian*", "argentin*"], pl: ["latynoamerykańsk*"], nl: ["latijns-amerikaans*"], sv: ["latinamerikansk*"] } },
  { language: "es", accent: "mexican", terms: { en: ["mexican"], de: ["mexikanisch*"], fr: ["mexicain*"], es: ["mexican*"], it: ["messican*"], pt: ["mexican*"], pl: ["meksykańsk*"], nl: ["mexicaans*"], sv: ["mexikansk*"], hi: ["मैक्सिकन"] } },
  { language: "it", terms: { en: ["italian", "roman", "sicilian", "neapolitan"], de: ["italienisch*"], fr: ["italien*"], es: ["italian*"], it: ["italian*", "romano", "romana", "siciliano", "siciliana", "napoletan*", "in italiano"], pt: ["italian*"], pl: ["włosk*", "po włosku"], nl: ["italiaans*"], sv: ["italiensk*"], hi: ["इतालवी"] } },
  { language: "pt", accent: "brazilian", terms: { en: ["portuguese", "brazilian", "carioca"], de: ["portugiesisch*", "brasilianisch*"], fr: ["portugais*", "brésilien*"], es: ["portugués", "portuguesa", "brasileñ*"], it: ["portoghes*", "brasilian*"], pt: ["português", "portuguesa", "brasileir*", "carioca", "em português"], pl: ["portugalsk*", "brazylijsk*"], nl: ["portugees", "portugese", "braziliaans*"], sv: ["portugisisk*", "brasiliansk*"], hi: ["पुर्तगाली", "ब्राज़ीली"] } },
  { language: "pt", accent: "european", terms: { en: ["european portuguese", "lisbon", "portugal"], pt: ["português europeu", "portugal", "lisboeta", "lisboa"] } },
  { language: "pl", terms: { en: ["polish", "pole"], de: ["polnisch*", "pole", "polin"], fr: ["polonais*"], es: ["polac*"], it: ["polacc*"], pt: ["polonês", "polonesa", "polaco", "polaca"], pl: ["polsk*", "polak", "polka", "po polsku"], nl: ["pools*"], sv: ["polsk*"], hi: ["पोलिश"] } },
  { language: "nl", terms: { en: ["dutch", "flemish", "netherlands"], de: ["niederländisch*", "holländisch*", "flämisch*"], fr: ["néerlandais*", "hollandais*", "flamand*"], es: ["neerlandés", "neerlandesa", "holandés", "holandesa", "flamenc*"], it: ["olandes*", "fiamming*", "nederlandes*"], pt: ["holandês", "holandesa", "neerlandês", "flamengo"], pl: ["holendersk*", "niderlandzk*", "flamandzk*"], nl: ["nederlands*", "hollands*", "vlaams*", "in het nederlands"], sv: ["nederländsk*", "holländsk*", "flamländsk*"], hi: ["डच"] } },
  { language: "sv", terms: { en: ["swedish", "swede"], de: ["schwedisch*"], fr: ["suédois*"], es: ["suec*"], it: ["svedes*"], pt: ["sueco", "sueca"], pl: ["szwedzk*"], nl: ["zweeds*"], sv: ["svensk*", "på svenska"], hi: ["स्वीडिश"] } },
  { language: "hi", terms: { en: ["hindi", "indian", "bollywood"], de: ["indisch*", "hindi"], fr: ["indien*", "hindi"], es: ["indi*", "hindi"], it: ["indian*", "hindi"], pt: ["indian*", "hindi"], pl: ["hindi", "indyjsk*"], nl: ["indiaas*", "hindi"], sv: ["indisk*", "hindi"], hi: ["हिंदी", "हिन्दी", "भारतीय"] } },
  // Languages the engine also speaks (accepted when named, not parsed as prompt languages).
  { language: "da", terms: { en: ["danish", "dane"], de: ["dänisch*"], fr: ["danois*"], es: ["danés", "danesa"], it: ["danes*"], pt: ["dinamarquês", "dinamarquesa"], pl: ["duńsk*"], nl: ["deens*"], sv: ["dansk*"] } },
  { language: "no", terms: { en: ["norwegian"], de: ["norwegisch*"], fr: ["norvégien*"], es: ["norueg*"], it: ["norveges*"], pt: ["norueguês", "norueguesa"], pl: ["norwesk*"], nl: ["noors*"], sv: ["norsk*"] } },
  { language: "fi", terms: { en: ["finnish", "finn"], de: ["finnisch*"], fr: ["finlandais*"], es: ["finlandés", "finlandesa"], it: ["finlandes*"], pt: ["finlandês", "finlandesa"], pl: ["fińsk*"], nl: ["fins*"], sv: ["finsk*"] } },
  { language: "cs", terms: { en: ["czech"], de: ["tschechisch*"], fr: ["tchèque*"], es: ["chec*"], it: ["cec*"], pt: ["tcheco", "checo"], pl: ["czesk*"], nl: ["tsjechisch*"], sv: ["tjeckisk*"] } },
  { language: "ro", terms: { en: ["romanian"], de: ["rumänisch*"], fr: ["roumain*"], es: ["ruman*"], it: ["rumen*"], pt: ["romeno", "romena"], pl: ["rumuńsk*"], nl: ["roemeens*"], sv: ["rumänsk*"] } },
  { language: "ru", terms: { en: ["russian"], de: ["russisch*"], fr: ["russe*"], es: ["rus", "rusa", "ruso"], it: ["russ*"], pt: ["russo", "russa"], pl: ["rosyjsk*"], nl: ["russisch*"], sv: ["rysk*"], hi: ["रूसी"] } },
  { language: "tr", terms: { en: ["turkish"], de: ["türkisch*"], fr: ["turc", "turque"], es: ["turc*"], it: ["turc*"], pt: ["turco", "turca"], pl: ["tureck*"], nl: ["turks*"], sv: ["turkisk*"], hi: ["तुर्की"] } },
  { language: "id", terms: { en: ["indonesian"], de: ["indonesisch*"], fr: ["indonésien*"], es: ["indonesi*"], it: ["indonesian*"], pt: ["indonési*"], pl: ["indonezyjsk*"], nl: ["indonesisch*"], sv: ["indonesisk*"] } },
];

/** Languages the engine does not speak: naming one as the voice's language is refused with its name. */
export const UNSPOKEN_LANGUAGES: Array<{ name: string; terms: Terms }> = [
  { name: "Japanese", terms: { en: ["japanese"], de: ["japanisch*"], fr: ["japonais*"], es: ["japon*"], it: ["giappones*"], pt: ["japonês", "japonesa"], pl: ["japońsk*"], nl: ["japans*"], sv: ["japansk*"], hi: ["जापानी"] } },
  { name: "Chinese", terms: { en: ["chinese", "mandarin", "cantonese"], de: ["chinesisch*", "mandarin", "kantonesisch*"], fr: ["chinois*", "mandarin", "cantonais*"], es: ["chin*", "mandarín", "cantonés"], it: ["cines*", "mandarino", "cantones*"], pt: ["chinês", "chinesa", "mandarim", "cantonês"], pl: ["chińsk*", "mandaryńsk*"], nl: ["chinees", "chinese", "mandarijn*", "kantonees"], sv: ["kinesisk*", "mandarin"], hi: ["चीनी", "मंदारिन"] } },
  { name: "Korean", terms: { en: ["korean"], de: ["koreanisch*"], fr: ["coréen*"], es: ["corean*"], it: ["corean*"], pt: ["corean*"], pl: ["koreańsk*"], nl: ["koreaans*"], sv: ["koreansk*"], hi: ["कोरियाई"] } },
  { name: "Arabic", terms: { en: ["arabic", "arab"], de: ["arabisch*"], fr: ["arabe*"], es: ["árabe*"], it: ["arab*"], pt: ["árabe*"], pl: ["arabsk*"], nl: ["arabisch*"], sv: ["arabisk*"], hi: ["अरबी"] } },
  { name: "Hebrew", terms: { en: ["hebrew"], de: ["hebräisch*"], fr: ["hébreu*"], es: ["hebre*"], it: ["ebraic*"], pt: ["hebraic*"], pl: ["hebrajsk*"], nl: ["hebreeuws*"], sv: ["hebreisk*"] } },
  { name: "Greek", terms: { en: ["greek"], de: ["griechisch*"], fr: ["grec", "grecque"], es: ["grieg*"], it: ["grec*"], pt: ["grego", "grega"], pl: ["greck*"], nl: ["grieks*"], sv: ["grekisk*"] } },
  { name: "Thai", terms: { en: ["thai"], de: ["thailändisch*"], fr: ["thaï*", "thaïlandais*"], es: ["tailandés", "tailandesa"], it: ["tailandes*"], pt: ["tailandês", "tailandesa"], pl: ["tajsk*"], nl: ["thais*"], sv: ["thailändsk*"] } },
  { name: "Vietnamese", terms: { en: ["vietnamese"], de: ["vietnamesisch*"], fr: ["vietnamien*"], es: ["vietnamita*"], it: ["vietnamit*"], pt: ["vietnamita*"], pl: ["wietnamsk*"], nl: ["vietnamees", "vietnamese"], sv: ["vietnamesisk*"] } },
  { name: "Swahili", terms: { en: ["swahili"], de: ["suaheli", "swahili"], fr: ["swahili"], es: ["suajili"], it: ["swahili"], pt: ["suaíli"], pl: ["suahili"], nl: ["swahili"], sv: ["swahili"] } },
  { name: "Ukrainian", terms: { en: ["ukrainian"], de: ["ukrainisch*"], fr: ["ukrainien*"], es: ["ucranian*"], it: ["ucrain*"], pt: ["ucranian*"], pl: ["ukraińsk*"], nl: ["oekraïens*"], sv: ["ukrainsk*"] } },
  { name: "Persian", terms: { en: ["persian", "farsi"], de: ["persisch*", "farsi"], fr: ["persan*", "farsi"], es: ["pers*", "farsi"], it: ["persian*", "farsi"], pt: ["persa", "farsi"], pl: ["persk*"], nl: ["perzisch*"], sv: ["persisk*"] } },
  { name: "Tagalog", terms: { en: ["tagalog", "filipino"] } },
  { name: "Bengali", terms: { en: ["bengali", "bangla"], hi: ["बंगाली", "बांग्ला"] } },
  { name: "Tamil", terms: { en: ["tamil"], hi: ["तमिल"] } },
  { name: "Urdu", terms: { en: ["urdu"], hi: ["उर्दू"] } },
];

export const LANGUAGE_DISPLAY: Record<string, string> = {
  en: "English", de: "German", fr: "French", es: "Spanish", it: "Italian", pt: "Portuguese", pl: "Polish", nl: "Dutch", sv: "Swedish",
  hi: "Hindi", da: "Danish", no: "Norwegian", fi: "Finnish", cs: "Czech", ro: "Romanian", ru: "Russian", tr: "Turkish", id: "Indonesian",
};
