import { DOCS_PAGES } from "../lib/links.js";
import { InfoPage, infoPageLoader, infoPageMeta } from "../components/InfoPage.js";

export const loader = infoPageLoader(DOCS_PAGES);
export const meta = infoPageMeta;
export default InfoPage;
