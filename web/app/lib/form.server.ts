import { data } from "@remix-run/node";

/** What a form action answers to a body no HTML form sends (JSON, plain text...). */
export const FORM_TYPE_MESSAGE = "This address takes a form (application/x-www-form-urlencoded or multipart/form-data).";
export const FORM_UNREADABLE_MESSAGE = "The form could not be read. Please reload the page and try again.";

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

/**
 * An action's form: 415 for a body of another type, 400 for a form that does not parse, instead of
 * the 500 request.formData() would end in. (The web handler lets JSON and text/plain through for
 * the pages' own fetches; a form action takes neither.)
 */
export async function readForm(request: Request): Promise<FormData> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (!FORM_TYPES.includes(type)) throw data({ message: FORM_TYPE_MESSAGE }, { status: 415, statusText: "Unsupported Media Type" });
  try {
    return await request.formData();
  } catch {
    throw data({ message: FORM_UNREADABLE_MESSAGE }, { status: 400, statusText: "Bad Request" });
  }
}
