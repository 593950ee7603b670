/**
 * What a feature hands the router (src/router.tsx): its routes, built under the parent the shell
 * gives them (signed-out pages or the signed-in layout), and its entries in the main navigation.
 * The session guards stay in the shell, so a feature's routes are only path, search and view.
 */
export interface NavItem {
  /** A path of one of the feature's signed-in routes. */
  to: string;
  label: string;
}
