import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { DOCS_PAGES } from "../lib/links.js";

export function loader({ params }: LoaderFunctionArgs) {
  if (!params.slug || !Object.hasOwn(DOCS_PAGES, params.slug)) throw data({ message: "Page not found" }, { status: 404 });
  return DOCS_PAGES[params.slug]!;
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.title} · Timbre` : "Timbre" }];

export default function DocsPage() {
  const page = useLoaderData<typeof loader>();
  return (
    <main id="main" className="page page-narrow">
      <h1>{page.title}</h1>
      <p>{page.text}</p>
      <p>
        <Link to="/app">Back to Timbre</Link>
      </p>
    </main>
  );
}
