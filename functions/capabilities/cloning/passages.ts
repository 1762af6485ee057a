/**
 * The passage a clone's fit renders (functions/capabilities/cloning/fit.ts), one per engine language:
 * ordinary read sentences of six to eight seconds. They are not the voice-analysis passages
 * (those tune and evaluate the embedding), so a fit never trains on an evaluation text.
 */
export const CALIBRATION_PASSAGES: Record<string, string> = {
  en: "A small dog ran across the wet grass and barked at the postman. Later that day, we walked down to the harbour to watch the boats.",
  de: "Ein kleiner Hund lief über das nasse Gras und bellte den Briefträger an. Später gingen wir zum Hafen hinunter, um die Boote zu sehen.",
  fr: "Un petit chien a traversé l'herbe mouillée en aboyant contre le facteur. Plus tard, nous sommes descendus au port pour regarder les bateaux.",
  es: "Un perro pequeño cruzó la hierba mojada y le ladró al cartero. Más tarde bajamos al puerto para mirar los barcos.",
  it: "Un piccolo cane ha attraversato l'erba bagnata abbaiando al postino. Più tardi siamo scesi al porto a guardare le barche.",
  pt: "Um cachorro pequeno atravessou a grama molhada e latiu para o carteiro. Mais tarde, descemos até o porto para ver os barcos.",
  pl: "Mały pies przebiegł przez mokrą trawę i zaszczekał na listonosza. Później zeszliśmy do portu, żeby popatrzeć na łodzie.",
  nl: "Een kleine hond rende over het natte gras en blafte naar de postbode. Later liepen we naar de haven om naar de boten te kijken.",
  sv: "En liten hund sprang över det våta gräset och skällde på brevbäraren. Senare gick vi ner till hamnen för att titta på båtarna.",
  da: "En lille hund løb over det våde græs og gøede ad postbuddet. Senere gik vi ned til havnen for at se på bådene.",
  no: "En liten hund løp over det våte gresset og bjeffet på postbudet. Senere gikk vi ned til havnen for å se på båtene.",
  fi: "Pieni koira juoksi märän nurmikon yli ja haukkui postinkantajaa. Myöhemmin kävelimme satamaan katsomaan veneitä.",
  cs: "Malý pes přeběhl přes mokrou trávu a štěkal na pošťáka. Později jsme šli dolů do přístavu podívat se na lodě.",
  ro: "Un câine mic a alergat prin iarba udă și a lătrat la poștaș. Mai târziu am coborât în port să privim bărcile.",
  ru: "Маленькая собака пробежала по мокрой траве и залаяла на почтальона. Позже мы спустились в гавань посмотреть на лодки.",
  tr: "Küçük bir köpek ıslak çimenlerin üzerinden koştu ve postacıya havladı. Daha sonra tekneleri izlemek için limana indik.",
  hi: "एक छोटा कुत्ता गीली घास पर दौड़ा और डाकिये पर भौंका। बाद में हम नावें देखने के लिए बंदरगाह तक गए।",
  id: "Seekor anjing kecil berlari di atas rumput basah dan menggonggong pada tukang pos. Kemudian kami berjalan ke pelabuhan untuk melihat perahu.",
};

export function calibrationPassage(language: string): string {
  return CALIBRATION_PASSAGES[language] ?? CALIBRATION_PASSAGES.en;
}
