"""List experiments (the item count technique): the design, its estimators
(difference in means, Imai's maximum likelihood and regression), the design-effect
test, planning and simulation."""
