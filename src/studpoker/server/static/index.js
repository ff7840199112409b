// The landing page: the header shows who is signed in.
import { header } from "./common.js";

header();
