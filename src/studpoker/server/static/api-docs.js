// The API reference at /api/docs: Swagger UI (served by the room itself) on /api/openapi.json.
// A file of its own, not an inline script, so the pages' Content-Security-Policy needs no exception.
window.addEventListener("DOMContentLoaded", () => {
  if (typeof window.SwaggerUIBundle !== "function") return; // the fallback text (a link to the schema) stays
  window.SwaggerUIBundle({ url: "/api/openapi.json", dom_id: "#swagger-ui", deepLinking: true });
});
