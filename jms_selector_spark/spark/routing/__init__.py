"""Routing a message archive to subscriptions the way a broker does, cut by stage.

Each module imports only the ones before it:

1. `subscriptions` — `Subscription` and how subscriptions are given;
2. `rules` — the brokers' routing rules as data (R1–R17);
3. `versions` — versions of one subscription, and what a rebind loses (R10);
4. `checks` — what a broker refuses of well-formed subscriptions;
5. `tuning` — the plan's thresholds and features (`RoutingTuning`);
6. `estate` — each distinct selector of a call compiled once;
7. `access` — access predicates, read off each compiled selector;
8. `templates`, `keys`, `ranges` — the template plan, its key numbers, its range buckets;
9. `index` — the index plan of the other subscriptions;
10. `render_index`, `render_templates` — the SQL of both plans;
11. `columns` — the matching names as one Spark column (and the fallback UDF);
12. `rotation` — whose turn it is on a queue, over a table and (its state in the checkpoint) a stream;
13. `outcomes` — windows, topic fan-out, queue rotation, outcomes;
14. `report_input` — one persisted narrow copy of a routed result, for the estate report;
15. `volume`, `overlap`, `dead_letters` — the estate report's figures over that copy;
16. `estate_report` — those figures together, with lint;
17. `route` — `route` and `route_report`;
18. `explain` — `explain_routing`;
19. `migration` — `migration_report`.
"""
from .checks import subscription_errors
from .explain import explain_routing
from .migration import MigrationReport, SubscriptionChange, migration_report
from .route import route, route_report
from .rules import OUTCOMES, ROUTING_RULES, RULES, RoutingRules, routing_rules
from .subscriptions import Subscription, normalize_subscriptions
from .tuning import RoutingTuning

__all__ = ["route", "route_report", "explain_routing", "migration_report", "MigrationReport", "SubscriptionChange",
           "subscription_errors", "Subscription", "normalize_subscriptions", "RoutingRules", "ROUTING_RULES",
           "OUTCOMES", "RULES", "routing_rules", "RoutingTuning"]
