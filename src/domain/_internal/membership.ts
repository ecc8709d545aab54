/**
 * The key under which a {@link GroupItem} lets a {@link Group} record or drop their link, so that both
 * sides of the many-to-many relation change together and only through the group's methods.
 */
export const linkParent: unique symbol = Symbol('mcp-fusion.linkParent');
