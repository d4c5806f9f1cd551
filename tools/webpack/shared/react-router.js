// The React Router surface shared by the Whistle frontends. A shared module is provided whole, so
// sharing the package itself would ship all of it (server rendering, RSC, sessions: 60 KB gzip)
// to every page; re-exporting what the browser apps use lets webpack drop the rest.
// Add an export here when a frontend needs one: the shell provides this module to every remote.
export {
  Form,
  Link,
  Navigate,
  NavLink,
  Outlet,
  RouterProvider,
  createBrowserRouter,
  data,
  generatePath,
  isRouteErrorResponse,
  matchPath,
  redirect,
  useActionData,
  useBlocker,
  useFetcher,
  useHref,
  useLoaderData,
  useLocation,
  useMatches,
  useNavigate,
  useNavigation,
  useOutletContext,
  useParams,
  useRevalidator,
  useRouteError,
  useRouteLoaderData,
  useSearchParams,
  useSubmit,
} from 'react-router-implementation';
