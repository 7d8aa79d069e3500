Bx0J0eC!дтCkC2AnбqдDсCBдmDvD╟C-DJBtAа╗C4D
длбvцuд1д