import { describe, expect, it } from "vitest";
import { admit, convertedName, itemCost, MAX_QUEUE_ITEMS, newItem, queueMessages, queueReducer, type QueueItem } from "./queue.js";

const audio = (name: string, size = 1000, type = "audio/wav") => new File([new Uint8Array(size)], name, { type });

describe("the voice changer queue", () => {
  it("admits audio files up to the queue's size and says why others were refused", () => {
    const { items, refused } = admit([], [audio("a.wav"), audio("notes.txt", 10, "text/plain"), audio("b.MP3", 10, ""), audio("rec.webm", 10, "video/webm")]);
    expect(items.map((i) => i.file.name)).toEqual(["a.wav", "b.MP3", "rec.webm"]);
    expect(items.every((i) => i.status === "pending" && i.durationMilliseconds === null)).toBe(true);
    expect(refused).toEqual([queueMessages.notAudio("notes.txt")]);
    const full = Array.from({ length: MAX_QUEUE_ITEMS }, (_, i) => newItem(audio(`${i}.wav`)));
    expect(admit(full, [audio("more.wav")])).toEqual({ items: [], refused: [queueMessages.queueFull] });
  });

  it("marks a file over the upload limit as an error right away", () => {
    const big = newItem(audio("big.wav", 50 * 1024 * 1024 + 1));
    expect(big.status).toBe("error");
    expect(big.error).toBe(queueMessages.tooLarge);
  });

  it("moves items pending -> processing -> converted, regenerate returns to pending, remove drops", () => {
    let q: QueueItem[] = [];
    const [a, b] = [newItem(audio("a.wav")), newItem(audio("b.wav"))];
    q = queueReducer(q, { type: "add", items: [a, b] });
    q = queueReducer(q, { type: "duration", id: a.id, durationMilliseconds: 2500 });
    q = queueReducer(q, { type: "processing", id: a.id });
    expect(q[0].status).toBe("processing");
    const file = { id: "h1", filename: "a_Avery.mp3", url: "blob:x", cost: 150 };
    q = queueReducer(q, { type: "converted", id: a.id, file });
    expect(q[0]).toMatchObject({ status: "converted", convertedFile: file, durationMilliseconds: 2500 });
    q = queueReducer(q, { type: "regenerate", id: a.id });
    expect(q[0].status).toBe("pending");
    q = queueReducer(q, { type: "error", id: b.id, error: "Conversion failed" });
    expect(q[1]).toMatchObject({ status: "error", error: "Conversion failed" });
    q = queueReducer(q, { type: "remove", id: a.id });
    expect(q.map((i) => i.id)).toEqual([b.id]);
  });

  it("prices an item as /v1 charges it: seconds x 60 x model multiplier x voice rate", () => {
    expect(itemCost(2500, 1)).toBe(150);
    expect(itemCost(2500, 1, 2)).toBe(300);
    expect(itemCost(1001, 0.5)).toBe(31);
    expect(itemCost(null, 1)).toBeNull();
  });

  it("names the converted file after the upload and the voice", () => {
    expect(convertedName("my take.wav", "Avery")).toBe("my take_Avery.mp3");
    expect(convertedName("rec", "Lucía / ES")).toBe("rec_Lucía_ES.mp3");
  });
});
