import type { ApiRouter } from "../../../platform/http/app.js";
import { ApiError, ValidationError } from "../../../platform/http/errors.js";
import { json } from "../../../platform/http/types.js";
import { field, parseMultipart } from "../../../platform/http/multipart.js";
import { jsonBody } from "../../../platform/http/validate.js";
import { DetectLanguageBody, FORCED_ALIGNMENT } from "../../../platform/contract/pvc.js";
import { forcedAlignment } from "../service.js";
import { detectLanguages, DETECT_MAX_CHARS } from "../../../media/language/detect.js";

/** Forced alignment (contract: `forcedAlignment.create`) and language detection of text. */
export function registerAlignment(r: ApiRouter): void {
  r.post("/v1/forced-alignment", async (req, rc) => {
    await rc.caller();
    const form = await parseMultipart(req, { maxFileBytes: FORCED_ALIGNMENT.maxBytes, maxFiles: 1, maxFields: 5, maxFieldBytes: 4 * FORCED_ALIGNMENT.maxTextChars + 1024 });
    const file = form.files.find((f) => f.field === "file");
    const text = field(form, "text");
    if (!file) throw new ValidationError([{ loc: ["body", "file"], msg: "Field required", type: "missing" }]);
    if (text === undefined) throw new ValidationError([{ loc: ["body", "text"], msg: "Field required", type: "missing" }]);
    if (file.truncated) throw new ApiError(413, "file_too_large", `The file must be smaller than ${FORCED_ALIGNMENT.maxBytes / 1024 / 1024} MB.`);
    return json(await forcedAlignment(rc.app, file.data, text));
  });

  // Timbre: the language of a text, from its first 100 characters (the recorder's script checks).
  r.post("/v1/text/detect-language", async (req, rc) => {
    await rc.caller();
    const { text } = jsonBody(req, DetectLanguageBody);
    const guesses = detectLanguages([...text].slice(0, DETECT_MAX_CHARS).join(""));
    return json({ detected_languages: guesses.map((g) => g.language), probabilities: Object.fromEntries(guesses.map((g) => [g.language, g.probability])) });
  });
}
