import type { MetaFunction } from "@remix-run/node";
import { useFetcher, useSearchParams } from "@remix-run/react";
import { useShell } from "../lib/shell.js";

export const meta: MetaFunction = () => [{ title: "Support request · Timbre" }];

/**
 * The support request form the assistant's show_support_link opens (speech-generation.md §7), the
 * user's e-mail ({email}) prefilled. It goes to the server's feedback inbox, which its
 * administrators read.
 */
export default function SupportRequest() {
  const shell = useShell();
  const [params] = useSearchParams();
  const fetcher = useFetcher<{ relevant?: boolean }>();
  const email = params.get("email") ?? shell?.user.email ?? "";
  const sent = fetcher.state === "idle" && fetcher.data !== undefined;
  return (
    <div className="page page-narrow">
      <h1>Support request</h1>
      {sent ? (
        <p role="status">Thank you: your request was sent. The team will answer by e-mail.</p>
      ) : (
        <fetcher.Form method="post" action="/app/feedback" className="form">
          <label>
            Your e-mail
            <input name="email" type="email" defaultValue={email} readOnly />
          </label>
          <label>
            What do you need help with?
            <textarea name="message" required maxLength={2000} rows={6} />
          </label>
          <input type="hidden" name="feedback" value="" />
          <button
            type="submit"
            className="button button-primary"
            onClick={(e) => {
              const form = e.currentTarget.form!;
              (form.elements.namedItem("feedback") as HTMLInputElement).value = `Support request from ${email}: ${(form.elements.namedItem("message") as HTMLTextAreaElement).value}`;
            }}
          >
            Send request
          </button>
        </fetcher.Form>
      )}
    </div>
  );
}
