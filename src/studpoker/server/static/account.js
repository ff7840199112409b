// The account page: change the password (every other session ends) and sign out everywhere.

import { api, requireLogin, say } from "./common.js";

const form = document.getElementById("password-form");

(async () => {
  const me = await requireLogin();
  if (!me) return;
  document.getElementById("account-name").textContent = me.username;
})();

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  say("password-status", "");
  const current = form.current.value;
  const fresh = form["new-password"].value;
  if (fresh !== form.repeat.value) {
    say("password-status", "The two new passwords are not the same: type it again.", true);
    form.repeat.focus();
    return;
  }
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    const answer = await api("POST", "/api/me/password", { current, new: fresh });
    form.reset();
    const others = answer.ended === 1 ? "1 other session was" : `${answer.ended} other sessions were`;
    say("password-status", `Your password is changed. ${others} signed out.`);
  } catch (error) {
    if (error.status === 401) location.href = `/login?next=${encodeURIComponent(location.pathname)}`;
    say("password-status", sentence(error.message), true);
  } finally {
    button.disabled = false;
  }
});

document.getElementById("end-sessions").addEventListener("click", async () => {
  say("sessions-status", "");
  try {
    await api("POST", "/api/me/sessions/end");
    location.href = "/login";
  } catch (error) {
    say("sessions-status", sentence(error.message), true);
  }
});

/** The server's message as a sentence: "the current password is not right" -> "The current password is not right." */
function sentence(text) {
  const message = String(text ?? "").trim();
  if (!message) return "Something went wrong: try again.";
  return message[0].toUpperCase() + message.slice(1) + (/[.!?]$/.test(message) ? "" : ".");
}
