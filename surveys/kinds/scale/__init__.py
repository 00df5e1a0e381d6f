"""A rating scale on the platform side: an ordered set of labels (a 5-point
agreement scale), asked plainly. It is a direct question whose codes are in
the order the researcher wrote them, so its exports say that order (value
labels 0..k-1 and an ``ordered`` codebook entry) and breakdowns read it like
any direct answer."""
