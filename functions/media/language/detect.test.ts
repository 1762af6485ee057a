import { describe, expect, it } from "vitest";
import { detectLanguages } from "./detect.js";

const SAMPLES: Record<string, string> = {
  en: "We walked along the river until the lights of the town came into view.",
  es: "Caminamos junto al río hasta que vimos las luces del pueblo en la distancia.",
  pt: "Caminhamos ao longo do rio até que as luzes da cidade apareceram ao longe.",
  fr: "Nous avons marché le long de la rivière jusqu'à ce que les lumières de la ville apparaissent.",
  de: "Wir gingen am Fluss entlang, bis die Lichter der Stadt in der Ferne auftauchten.",
  it: "Abbiamo camminato lungo il fiume finché non sono apparse le luci della città.",
  hr: "Hodali smo uz rijeku sve dok se u daljini nisu pojavila svjetla grada.",
  ru: "Мы шли вдоль реки, пока вдали не показались огни города.",
  zh: "我们沿着河边走，直到远处出现了小镇的灯光。",
  ko: "우리는 멀리서 마을의 불빛이 보일 때까지 강을 따라 걸었다.",
};

describe("language detection of text", () => {
  for (const [language, text] of Object.entries(SAMPLES)) {
    it(`puts ${language} first for a sentence in it`, () => {
      expect(detectLanguages(text)[0].language).toBe(language);
    });
  }
  it("reads only the first 100 characters", () => {
    const text = `${"Wir gingen am Fluss entlang und sahen die Lichter der Stadt. ".repeat(2)}${"the and of to a in is it you that ".repeat(20)}`;
    expect(detectLanguages(text)[0].language).toBe("de");
  });
  it("finds nothing in text without letters", () => {
    expect(detectLanguages("1234 !!! ...")).toEqual([]);
  });
});
