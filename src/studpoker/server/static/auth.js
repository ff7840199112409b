// Sign-in and sign-up pages: post the form as JSON, then go to `?next=` or the lobby.

import { api, header, safeNext, say } from "./common.js";

header();
const form = document.getElementById("auth-form");
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  say("status", "");
  const body = { username: form.username.value.trim(), password: form.password.value };
  try {
    await api("POST", form.dataset.endpoint, body);
    location.href = safeNext(new URLSearchParams(location.search).get("next"));
  } catch (error) {
    say("status", error.message, true);
  }
});
