/** The HTML login page the Laravel app serves at `/login` (where a 302 without `Accept: application/json` leads). */
export const LOGIN_PAGE = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Login - Content Platform</title></head>
<body>
<form method="POST" action="/login">
<input type="email" name="email" placeholder="Email"><input type="password" name="password" placeholder="Password">
<button type="submit">Login</button>
</form>
</body>
</html>
`;

/** The HTML home page of the site, where browsers are redirected from the Catalog API. */
export const HOME_PAGE = `<!DOCTYPE html>
<html lang="ar" dir="rtl">
<head><meta charset="utf-8"><title>Content Platform Market</title></head>
<body><h1>Content Platform Market</h1></body>
</html>
`;

/** An HTML 200 response. */
export function html(body: string, status = 200): Response {
  return new Response(body, { status, headers: { 'content-type': 'text/html; charset=UTF-8' } });
}
