import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect } from "react";
import { z } from "zod";
import { ENGINE_LANGUAGES } from "../../../functions/platform/domain/models.js";
import { CsrfInput } from "../components/Csrf.js";
import { FormError } from "../components/Field.js";
import { Page } from "../components/Page.js";
import { useToast } from "../components/ui/Toast.js";
import { requireProducerPage } from "../components/productions/productions.server.js";
import { refusal, v1, v1Form } from "../lib/v1.server.js";

export const meta: MetaFunction = () => [{ title: "Producer settings · Timbre" }];
const Settings = z.object({ languages: z.array(z.string()) });

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireProducerPage(request, context);
  const { client } = await v1(request, context);
  return client.call("/v1/productions/settings", { schema: Settings });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { client, form } = await v1Form(request, context);
  const languages = form.getAll("languages").map(String);
  try {
    await client.call("/v1/productions/settings", { method: "PATCH", body: { languages }, schema: Settings });
    return { ok: true as const, message: "Settings saved." };
  } catch (e) {
    return refusal(e, "save");
  }
}

/** The languages a producer reviews: the unclaimed queue shows only those (none chosen: every language). */
export default function ProducerSettings() {
  const { languages } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const toast = useToast();
  useEffect(() => {
    if (result && "ok" in result && result.ok) toast.show({ message: result.message, kind: "success" });
  }, [result, toast]);
  return (
    <Page title="Settings" description="Choose the languages you review. With none chosen, the queue shows every language.">
      <Form method="post" className="card stack-form">
        <CsrfInput />
        <fieldset className="producer-languages">
          <legend>Languages I review</legend>
          {ENGINE_LANGUAGES.map((l) => (
            <label key={l.language_id} className="check">
              <input type="checkbox" name="languages" value={l.language_id} defaultChecked={languages.includes(l.language_id)} /> {l.name}
            </label>
          ))}
        </fieldset>
        <button type="submit" className="button button-primary" disabled={busy}>
          Save
        </button>
        <FormError id="settings-error" message={result && "error" in result ? result.error : null} />
      </Form>
    </Page>
  );
}
