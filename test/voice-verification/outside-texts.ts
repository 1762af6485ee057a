/**
 * Texts the outside voices (test/support/outside-speech.ts) read for issue 26's speaker check: per language, two
 * enrolment passages (the "samples" of a clone) and three short test utterances (what a verifying reader says). Written
 * here; plain everyday sentences.
 */
export const SPEAKER_TEXTS: Record<string, { enrol: string[]; test: string[] }> = {
  en: {
    enrol: [
      "The morning train was late again, so everyone waited on the cold platform. Nobody complained, because the coffee stand had just opened.",
      "Our neighbours keep bees in the garden behind their house. Every autumn they bring us a jar of honey and a basket of apples.",
    ],
    test: ["Apple, river, yellow, garden, window, silver.", "Candle, pencil, rabbit, sunset, winter, ocean.", "Tiger, bottle, meadow, violin, blanket, button."],
  },
  ru: {
    enrol: [
      "Утром поезд опять опоздал, и все ждали на холодной платформе. Никто не жаловался, потому что кофейня уже открылась.",
      "Наши соседи держат пчёл в саду за домом. Каждую осень они приносят нам банку мёда и корзину яблок.",
    ],
    test: ["Яблоко, река, жёлтый, сад, окно, серебро.", "Свеча, карандаш, кролик, закат, зима, океан.", "Тигр, бутылка, луг, скрипка, одеяло, пуговица."],
  },
  hi: {
    enrol: [
      "सुबह की ट्रेन फिर से देर से आई, इसलिए सब लोग ठंडे प्लेटफॉर्म पर इंतज़ार करते रहे। किसी ने शिकायत नहीं की।",
      "हमारे पड़ोसी अपने घर के पीछे बगीचे में मधुमक्खियाँ पालते हैं। हर साल वे हमें शहद और सेब लाते हैं।",
    ],
    test: ["सेब, नदी, पीला, बगीचा, खिड़की, चाँदी।", "मोमबत्ती, पेंसिल, खरगोश, सर्दी, समुद्र, टोकरी।", "बाघ, बोतल, घास, कंबल, बटन, तकिया।"],
  },
  mr: {
    enrol: [
      "सकाळची गाडी पुन्हा उशिरा आली, म्हणून सगळे थंड फलाटावर थांबले. कोणीही तक्रार केली नाही.",
      "आमचे शेजारी घरामागच्या बागेत मधमाश्या पाळतात. दर वर्षी ते आम्हाला मध आणि सफरचंद आणतात.",
    ],
    test: ["सफरचंद, नदी, पिवळा, बाग, खिडकी, चांदी.", "मेणबत्ती, पेन्सिल, ससा, हिवाळा, समुद्र, टोपली.", "वाघ, बाटली, गवत, घोंगडी, बटण, उशी."],
  },
  te: {
    enrol: [
      "ఉదయం రైలు మళ్ళీ ఆలస్యంగా వచ్చింది, అందుకే అందరూ చల్లని ప్లాట్‌ఫారం మీద ఎదురు చూశారు. ఎవరూ ఫిర్యాదు చేయలేదు.",
      "మా పొరుగువారు ఇంటి వెనుక తోటలో తేనెటీగలను పెంచుతారు. ప్రతి సంవత్సరం వారు మాకు తేనె మరియు ఆపిల్ పండ్లు తెస్తారు.",
    ],
    test: ["ఆపిల్, నది, పసుపు, తోట, కిటికీ, వెండి.", "కొవ్వొత్తి, పెన్సిల్, కుందేలు, చలికాలం, సముద్రం, బుట్ట.", "పులి, సీసా, గడ్డి, దుప్పటి, బొత్తాం, దిండు."],
  },
  cs: {
    enrol: [
      "Ranní vlak měl zase zpoždění, a tak všichni čekali na studeném nástupišti. Nikdo si nestěžoval, protože kavárna už otevřela.",
      "Naši sousedé chovají včely na zahradě za domem. Každý podzim nám přinesou sklenici medu a košík jablek.",
    ],
    test: ["Jablko, řeka, žlutá, zahrada, okno, stříbro.", "Svíčka, tužka, králík, západ, zima, oceán.", "Tygr, láhev, louka, housle, deka, knoflík."],
  },
  it: {
    enrol: [
      "Il treno del mattino era di nuovo in ritardo, così tutti aspettavano sul binario freddo. Nessuno si lamentava, perché il bar aveva appena aperto.",
      "I nostri vicini tengono le api nel giardino dietro casa. Ogni autunno ci portano un vasetto di miele e un cesto di mele.",
    ],
    test: ["Mela, fiume, giallo, giardino, finestra, argento.", "Candela, matita, coniglio, tramonto, inverno, oceano.", "Tigre, bottiglia, prato, violino, coperta, bottone."],
  },
};
